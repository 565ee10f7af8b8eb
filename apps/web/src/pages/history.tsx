import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { Chart } from "../chart.tsx";
import { addDays, dayStart, localDay } from "../dates.ts";
import { TrendChart } from "../insights.tsx";
import { useLoad } from "../load.ts";
import { SITES, siteLabel } from "../sites.ts";
import type { Measurement, WeightReading } from "../types.ts";
import { lengthChart, useUnits, weightChart } from "../units.tsx";

/** Every item in [from, to), oldest first, page after page (the API's pages are at most 200). */
const allBetween = async <T,>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>) => {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && all.length < 5000);
  return all.reverse();
};

const seconds = (ms: number) => Math.round(ms / 1000);

/** Weight, body fat and each measured site over one chosen period. */
const BodyHistory = () => {
  const [range, setRange] = useState({ from: addDays(localDay(), -89), to: localDay() });
  const { units } = useUnits();
  const weight = weightChart(units);
  const length = lengthChart(units);
  const [from, to] = [dayStart(range.from), dayStart(addDays(range.to, 1))];
  const { value, error } = useLoad(async () => ({
    readings: await allBetween<WeightReading>((cursor) => api.weights({ from, to, limit: 200, ...(cursor ? { cursor } : {}) })),
    measurements: await allBetween<Measurement>((cursor) => api.measurements({ from, to, limit: 200, ...(cursor ? { cursor } : {}) })),
  }), [from, to]);
  const change = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    if (input.value) setRange((current) => ({ ...current, [input.name]: input.value }));
  };
  const span: [number, number] = [from / 1000, to / 1000];
  const period = `from ${range.from} to ${range.to}`;
  const withFat = value?.readings.filter((reading) => reading.bodyFatPct !== null) ?? [];
  const sites = SITES.map((site) => ({ site, items: value?.measurements.filter((m) => m.site === site) ?? [] })).filter((s) => s.items.length);
  return (
    <>
      <section class="tile wide" aria-labelledby="history-weight">
        <h2 id="history-weight">Weight</h2>
        <div class="row">
          <div class="field"><label for="history-from">From</label><input id="history-from" name="from" type="date" value={range.from} onChange={change} /></div>
          <div class="field"><label for="history-to">To</label><input id="history-to" name="to" type="date" value={range.to} onChange={change} /></div>
        </div>
        {error && <p class="error" role="alert">{error}</p>}
        {value && (
          <Chart title={`Weight ${period}`} unit={weight.unit} tick={weight.tick} span={span}
            times={value.readings.map((reading) => seconds(reading.ts))}
            series={[{ label: "Weight", values: value.readings.map((reading) => weight.value(reading.weightKg)), color: "#2563eb" }]} />
        )}
      </section>
      {withFat.length > 0 && (
        <section class="tile wide" aria-labelledby="history-body-fat">
          <h2 id="history-body-fat">Body fat</h2>
          <Chart title={`Body fat ${period}`} unit="%" span={span} times={withFat.map((reading) => seconds(reading.ts))}
            series={[{ label: "Body fat", values: withFat.map((reading) => reading.bodyFatPct), color: "#db2777" }]} />
        </section>
      )}
      {sites.map(({ site, items }) => (
        <section key={site} class="tile wide" aria-labelledby={`history-${site}`}>
          <h2 id={`history-${site}`} class="site">{siteLabel(site)}</h2>
          <Chart title={`${siteLabel(site)} ${period}`} unit={length.unit} span={span} times={items.map((m) => seconds(m.ts))}
            series={[{ label: siteLabel(site), values: items.map((m) => length.value(m.valueCm)), color: "#0d9488" }]} />
        </section>
      ))}
    </>
  );
};

/** Weeks back the expenditure is charted: each point is the estimate as it stood on that day. */
const EXPENDITURE_WEEKS = 12;

/**
 * The trend over the last 90 days, and the expenditure estimate week by week (GET /api/insights as of each week's
 * last day) beside the intake of each food day, counted or not.
 */
const InsightsHistory = () => {
  const today = localDay();
  const { value, error } = useLoad(async () => {
    const asOf = Array.from({ length: EXPENDITURE_WEEKS + 1 }, (_, week) => addDays(today, -7 * (EXPENDITURE_WEEKS - week)));
    return Promise.all(asOf.map((date) => api.insights(date)));
  }, [today]);
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!value) return null;
  const now = value.at(-1)!;
  const weekly = value.filter((insights) => insights.expenditure !== null);
  const days = [...new Set([...now.days.map((day) => day.date), ...weekly.map((insights) => insights.date)])].sort();
  const intake = new Map(now.days.map((day) => [day.date, day]));
  const estimate = new Map(weekly.map((insights) => [insights.date, insights.expenditure!]));
  const food = (counted: boolean) => days.map((day) => (intake.get(day)?.counted === counted ? intake.get(day)!.kcal : null));
  const span: [number, number] = [dayStart(addDays(today, -89)) / 1000, dayStart(addDays(today, 1)) / 1000];
  return (
    <>
      <section class="tile wide" aria-labelledby="history-trend">
        <h2 id="history-trend">Trend weight</h2>
        <TrendChart insights={now} title="Weight over the last 90 days: the scale and the trend" span={span} />
      </section>
      <section class="tile wide" aria-labelledby="history-expenditure">
        <h2 id="history-expenditure">Expenditure</h2>
        {weekly.length === 0 ? <p class="muted">Too little data: the estimate starts with your first weigh-in.</p> : (
          <>
            <p class="muted">The estimate as it stood at the end of each week, with its range; the bars are the food logged each day.</p>
            <Chart title="Estimated expenditure by week against the intake logged each day" unit="kcal" numbers span={span}
              times={days.map((day) => Math.round(dayStart(day) / 1000))} series={[
                { label: "Intake counted", values: food(true), color: "#ea580c", bars: true },
                { label: "Intake not counted", values: food(false), color: "#9ca3af", bars: true },
                { label: "Expenditure", values: days.map((day) => estimate.get(day)?.kcal ?? null), color: "#7c3aed" },
                { label: "Low", values: days.map((day) => estimate.get(day)?.low ?? null), color: "#a78bfa", dash: [4, 4] },
                { label: "High", values: days.map((day) => estimate.get(day)?.high ?? null), color: "#a78bfa", dash: [4, 4] },
              ]} />
          </>
        )}
      </section>
    </>
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
    <BodyHistory />
    <InsightsHistory />
    <NutritionHistory />
  </>
);
