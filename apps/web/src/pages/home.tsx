import { formatLength, formatWeight, type UnitSystem } from "@fit/units";
import { Fragment } from "preact";
import { api } from "../api.ts";
import { addDays, dayStart, localDay } from "../dates.ts";
import { givesMacros, macrosInWords } from "../day-macros.ts";
import { EnergyInWords, TrendChart, TrendInWords } from "../insights.tsx";
import { useLoad } from "../load.ts";
import type { Dashboard } from "../types.ts";
import { siteLabel } from "../sites.ts";
import { round } from "../ui.tsx";
import { useUnits } from "../units.tsx";

const adherenceWords = { under: "under target", on: "on target", over: "over target" } as const;

/** The bar's full length past the target, so a day over it still shows how far over. */
const HEADROOM = 1.25;

/**
 * Intake against a target: the bar fills towards a mark drawn at the target, so 2 170 of 2 200 kcal reads as
 * reaching the mark; within 10 % of it the bar is green, above that orange.
 */
const Progress = ({ label, value, target, unit }: { label: string; value: number; target: number | null; unit: string }) => {
  const scale = target ? Math.max(target * HEADROOM, value) : 0;
  const state = !target ? "" : value > target * 1.1 ? "over" : value >= target * 0.9 ? "on" : "under";
  return (
    <div class="progress">
      <div class="progress-head">
        <span>{label}</span>
        <strong data-testid={`today-${label.toLowerCase()}`}>{round(value, 0)}{target ? ` / ${round(target, 0)}` : ""} {unit}</strong>
      </div>
      {target ? (
        <div class={`bar ${state}`} role="meter" aria-valuemin={0} aria-valuemax={round(scale, 0)} aria-valuenow={round(value, 0)}
          aria-valuetext={`${round(value, 0)} of ${round(target, 0)} ${unit} (${Math.round((value / target) * 100)} % of the target)`}
          aria-label={`${label} against target`} data-testid={`bar-${label.toLowerCase()}`}>
          <div class="bar-fill" style={{ width: `${(value / scale) * 100}%` }} />
          <div class="bar-target" title={`Target ${round(target, 0)} ${unit}`} style={{ left: `${(target / scale) * 100}%` }} />
        </div>
      ) : null}
    </div>
  );
};

/** The 7-day average to a tenth of a kilogram, as it always read; pounds and stones keep their own tenth. */
const average = (kg: number, units: UnitSystem) => formatWeight(units === "metric" ? round(kg, 1) : kg, units);

const WeightTile = ({ weight, units }: { weight: Dashboard["weight"]; units: UnitSystem }) => (
  <section class="tile" aria-labelledby="tile-weight">
    <h2 id="tile-weight">Weight</h2>
    {weight ? (
      <>
        <p class="big" data-testid="latest-weight">{formatWeight(weight.latestKg, units)}</p>
        <p>{weight.bodyFatPct !== null ? `${weight.bodyFatPct} % body fat · ` : ""}7-day average {average(weight.weeklyAvgKg, units)}</p>
        {weight.note && <p class="muted">“{weight.note}”</p>}
      </>
    ) : <p class="muted">No weigh-ins yet. <a href="/weight">Log one</a>.</p>}
  </section>
);

const NutritionTile = ({ data }: { data: Dashboard }) => {
  const today = data.nutritionToday;
  return (
    <section class="tile" aria-labelledby="tile-today">
      <h2 id="tile-today">Today</h2>
      <Progress label="Energy" value={today?.kcal ?? 0} target={data.targets?.dailyKcalTarget ?? null} unit="kcal" />
      <Progress label="Protein" value={today?.proteinG ?? 0} target={data.targets?.proteinTargetG ?? null} unit="g" />
      {today && givesMacros(today) && <p data-testid="today-macros">{macrosInWords(today)}</p>}
      <p data-testid="adherence">
        {today?.adherence ? adherenceWords[today.adherence] : today ? "no kcal target" : "nothing logged today"}
        {today?.hitProtein ? " · protein target met" : ""}
      </p>
      <p><a href="/food">Log food</a></p>
    </section>
  );
};

const BodyTile = ({ data, units }: { data: Dashboard; units: UnitSystem }) => (
  <section class="tile" aria-labelledby="tile-body">
    <h2 id="tile-body">Measurements</h2>
    {data.measurementsLatest.length ? (
      <dl class="pairs">
        {data.measurementsLatest.map((m) => <Fragment key={m.site}><dt>{siteLabel(m.site)}</dt><dd>{formatLength(m.valueCm, units)}</dd></Fragment>)}
        {data.shoulderToWaist !== null && <><dt>shoulder : waist</dt><dd data-testid="shoulder-to-waist">{data.shoulderToWaist}</dd></>}
      </dl>
    ) : <p class="muted">None yet. <a href="/measurements">Add one</a>.</p>}
  </section>
);

const WorkoutsTile = ({ week }: { week: Dashboard["workoutsThisWeek"] }) => (
  <section class="tile" aria-labelledby="tile-workouts">
    <h2 id="tile-workouts">This week's workouts</h2>
    <p class="big">{week.count}</p>
    <p>{Math.round(week.durationS / 60)} min · {round(week.distanceM / 1000, 1)} km · {Math.round(week.energyKcal)} kcal</p>
  </section>
);

export const HomePage = () => {
  const today = localDay();
  const { value: data, error, reload } = useLoad(() => api.dashboard(today), [today]);
  // Apart from the dashboard, so Home still shows the day when the insights cannot be read.
  const insights = useLoad(() => api.insights(today), [today]);
  const { units } = useUnits();
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!data) return <p class="muted" aria-busy="true">Loading…</p>;
  const adopted = () => {
    void reload();
    void insights.reload();
  };
  return (
    <>
      <h1>Home</h1>
      <div class="tiles">
        <WeightTile weight={data.weight} units={units} />
        <NutritionTile data={data} />
        <BodyTile data={data} units={units} />
        <WorkoutsTile week={data.workoutsThisWeek} />
      </div>
      <section class="tile wide" aria-labelledby="tile-trend">
        <h2 id="tile-trend">90-day trend</h2>
        {insights.error && <p class="error" role="alert">{insights.error}</p>}
        {insights.value && (
          <>
            <TrendChart insights={insights.value} title="Weight over the last 90 days: the scale and the trend"
              span={[dayStart(addDays(today, -89)) / 1000, dayStart(addDays(today, 1)) / 1000]} />
            <TrendInWords insights={insights.value} />
          </>
        )}
      </section>
      {insights.value && (
        <section class="tile wide" aria-labelledby="tile-energy">
          <h2 id="tile-energy">Expenditure and targets</h2>
          <EnergyInWords insights={insights.value} adopted={adopted}
            current={{ kcal: data.targets?.dailyKcalTarget ?? null, proteinG: data.targets?.proteinTargetG ?? null }} />
        </section>
      )}
    </>
  );
};
