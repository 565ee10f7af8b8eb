import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { Chart } from "../chart.tsx";
import { addDays, dayStart, localDay } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { WeightReading } from "../types.ts";

/** Every reading in [from, to), page after page (the API's pages are at most 200). */
const readingsBetween = async (from: number, to: number) => {
  const all: WeightReading[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.weights({ from, to, limit: 200, ...(cursor ? { cursor } : {}) });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && all.length < 5000);
  return all.reverse();
};

const WeightHistory = () => {
  const [range, setRange] = useState({ from: addDays(localDay(), -89), to: localDay() });
  const { value, error } = useLoad(() => readingsBetween(dayStart(range.from), dayStart(addDays(range.to, 1))), [range.from, range.to]);
  const change = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    if (input.value) setRange((current) => ({ ...current, [input.name]: input.value }));
  };
  return (
    <section class="tile wide" aria-labelledby="history-weight">
      <h2 id="history-weight">Weight</h2>
      <div class="row">
        <div class="field"><label for="history-from">From</label><input id="history-from" name="from" type="date" value={range.from} onChange={change} /></div>
        <div class="field"><label for="history-to">To</label><input id="history-to" name="to" type="date" value={range.to} onChange={change} /></div>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {value && (
        <Chart
          title={`Weight from ${range.from} to ${range.to}`}
          unit="kg"
          times={value.map((reading) => Math.round(reading.ts / 1000))}
          span={[dayStart(range.from) / 1000, dayStart(addDays(range.to, 1)) / 1000]}
          series={[{ label: "Weight", values: value.map((reading) => reading.weightKg), color: "#2563eb" }]}
        />
      )}
    </section>
  );
};

const NutritionHistory = () => {
  const { value, error } = useLoad(async () => ({ totals: (await api.dailyTotals()).reverse(), targets: await api.targets() }), []);
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!value) return null;
  const { totals, targets } = value;
  const times = totals.map((total) => Math.round(dayStart(total.date) / 1000));
  const span: [number, number] = [(times[0] ?? 0) - 43_200, (times.at(-1) ?? 0) + 43_200];
  return (
    <>
      <section class="tile wide" aria-labelledby="history-kcal">
        <h2 id="history-kcal">Energy per day</h2>
        <Chart title="kcal per day against the target" unit="kcal" times={times} span={span} series={[
          { label: "kcal", values: totals.map((total) => total.kcal), color: "#ea580c", bars: true },
          ...(targets?.dailyKcalTarget ? [{ label: "Target", values: totals.map(() => targets.dailyKcalTarget), color: "#16a34a", dash: [6, 4] }] : []),
        ]} />
      </section>
      <section class="tile wide" aria-labelledby="history-protein">
        <h2 id="history-protein">Protein per day</h2>
        <Chart title="Protein per day against the target" unit="g" times={times} span={span} series={[
          { label: "Protein", values: totals.map((total) => total.proteinG), color: "#7c3aed", bars: true },
          ...(targets?.proteinTargetG ? [{ label: "Target", values: totals.map(() => targets.proteinTargetG), color: "#16a34a", dash: [6, 4] }] : []),
        ]} />
      </section>
    </>
  );
};

export const HistoryPage = () => (
  <>
    <h1>History</h1>
    <WeightHistory />
    <NutritionHistory />
  </>
);
