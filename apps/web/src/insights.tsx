// The insights in words and on a chart: trend weight, weekly rate, goal date, expenditure and the suggested
// targets, as GET /api/insights answers them (README, "Insights"); weights in the profile's units.
import { formatWeight, inUnitsOf, lbFromKg, type UnitSystem } from "@fit/units";
import { useState } from "preact/hooks";
import { api, ApiError } from "./api.ts";
import { Chart } from "./chart.tsx";
import { dayStart } from "./dates.ts";
import type { Insights } from "./types.ts";
import { useUnits, weightChart } from "./units.tsx";

type Expenditure = NonNullable<Insights["expenditure"]>;
type Suggested = NonNullable<Insights["suggestedTargets"]>;

/** kcal grouped by thousands with a space that does not break: "2 450". */
const kcal = (value: number) => String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");

const DAY_MS = 86_400_000;
const seconds = (day: string) => Math.round(dayStart(day) / 1000);
const dateInWords = (day: string) =>
  new Date(dayStart(day)).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });

/** A weight change per week: kilograms to the hundredth (the API's precision), pounds to the tenth. */
const perWeek = (kg: number, units: UnitSystem) =>
  units === "metric" ? `${Math.abs(kg).toFixed(2)} kg` : `${Math.abs(lbFromKg(kg)).toFixed(1)} lb`;

/** "Losing 0.45 kg a week"; stones show their rate in pounds, a fraction of a stone reads badly. */
const rateInWords = (kgPerWeek: number, units: UnitSystem) =>
  kgPerWeek === 0 ? "Steady" : `${kgPerWeek < 0 ? "Losing" : "Gaining"} ${perWeek(kgPerWeek, units)} a week`;

/** The scale's daily means as dots and the trend as a line through them, with the goal when there is one. */
export const TrendChart = ({ insights, title, span }: { insights: Insights; title: string; span: [number, number] }) => {
  const { units } = useUnits();
  const chart = weightChart(units);
  const { trend, goal } = insights;
  return (
    <Chart title={title} unit={chart.unit} tick={chart.tick} span={span} numbers times={trend.map((point) => seconds(point.date))} series={[
      { label: "Scale", values: trend.map((point) => (point.kg === null ? null : chart.value(point.kg))), color: "#93c5fd", dots: true },
      { label: "Trend", values: trend.map((point) => chart.value(point.trendKg)), color: "#2563eb" },
      ...(goal ? [{ label: "Goal", values: trend.map(() => chart.value(goal.goalWeightKg)), color: "#16a34a", dash: [6, 4] }] : []),
    ]} />
  );
};

/** How far apart two days are, in the largest whole unit that fits: "3 weeks", "5 days". */
const distance = (from: string, to: string) => {
  const days = Math.round(Math.abs(dayStart(to) - dayStart(from)) / DAY_MS);
  if (days >= 14) return `${Math.round(days / 7)} weeks`;
  return days === 1 ? "1 day" : `${days} days`;
};

/** When the goal is reached at this rate, beside the target date; a plain sentence when it is not in sight. */
const GoalInWords = ({ insights, units }: { insights: Insights; units: UnitSystem }) => {
  const { goal, weeklyRateKg, date } = insights;
  if (!goal) return <p data-testid="goal-date">No goal weight yet: <a href="/targets">set one</a> to see when you would reach it.</p>;
  const goalWeight = formatWeight(goal.goalWeightKg, units);
  const target = goal.targetDate ? <>your target date, <time dateTime={goal.targetDate}>{dateInWords(goal.targetDate)}</time></> : null;
  if (goal.goalDate === date) return <p data-testid="goal-date">At your goal of {goalWeight}.</p>;
  if (!goal.goalDate) {
    return (
      <p data-testid="goal-date">
        {weeklyRateKg === null ? `Goal ${goalWeight}: a goal date needs a week of trend.` : `At this rate the trend is not heading for your goal of ${goalWeight}.`}
        {target && <> Target date: <time dateTime={goal.targetDate!}>{dateInWords(goal.targetDate!)}</time>.</>}
      </p>
    );
  }
  const when = goal.targetDate === null ? null : goal.goalDate === goal.targetDate ? "on" : goal.goalDate < goal.targetDate ? "before" : "after";
  return (
    <p data-testid="goal-date">
      At this rate you reach {goalWeight} around <time dateTime={goal.goalDate}>{dateInWords(goal.goalDate)}</time>
      {when === null ? "; no target date set." : when === "on" ? <>, on {target}.</> : <>, {distance(goal.goalDate, goal.targetDate!)} {when} {target}.</>}
    </p>
  );
};

const confidenceWords = { low: "Low confidence", medium: "Medium confidence", high: "High confidence" } as const;

/** "≈ 2 450 kcal/day (2 300–2 600)", with how sure it is and what it rests on. */
const expenditureInWords = (expenditure: Expenditure) =>
  `≈ ${kcal(expenditure.kcal)} kcal/day (${kcal(expenditure.low)}–${kcal(expenditure.high)})`;

const ExpenditureInWords = ({ expenditure }: { expenditure: Expenditure | null }) => {
  if (!expenditure) return <p data-testid="expenditure">Too little data: the estimate starts with your first weigh-in.</p>;
  const days = `${expenditure.daysCounted} counted food ${expenditure.daysCounted === 1 ? "day" : "days"}`;
  return (
    <>
      <p class="big" data-testid="expenditure">{expenditureInWords(expenditure)}</p>
      <p class="muted" data-testid="expenditure-confidence">
        {expenditure.confidence === "formula"
          ? `Too little data yet (${days}): this is the formula's estimate from your profile; it moves to your own data as you log food and weigh in.`
          : `${confidenceWords[expenditure.confidence]}, from ${days} and your trend.`}
      </p>
    </>
  );
};

/** The suggested daily kcal and protein, and "Use this" to make them the targets. */
const Suggestion = ({ suggested, current, units, adopted }: {
  suggested: Suggested | null;
  current: { kcal: number | null; proteinG: number | null };
  units: UnitSystem;
  adopted: () => void;
}) => {
  const [state, setState] = useState<{ busy?: boolean; error?: string; done?: string }>({});
  if (!suggested) return <p data-testid="suggestion">A suggested target needs a goal weight (<a href="/targets">Targets</a>) and a weigh-in.</p>;
  const same = current.kcal === suggested.dailyKcal && current.proteinG === suggested.dailyProteinG;
  const use = async () => {
    setState({ busy: true });
    try {
      const targets = await api.adoptSuggestedTargets();
      setState({ done: `Your targets are now ${kcal(targets.dailyKcalTarget ?? 0)} kcal and ${targets.proteinTargetG ?? 0} g protein a day.` });
      adopted();
    } catch (caught) {
      setState({ error: caught instanceof ApiError ? caught.message : String(caught) });
    }
  };
  return (
    <>
      <p data-testid="suggestion">
        Suggested: <strong>{kcal(suggested.dailyKcal)} kcal</strong> and <strong>{suggested.dailyProteinG} g protein</strong> a day,
        {suggested.weeklyRateKg === 0 ? " to hold your weight." : ` for ${rateInWords(suggested.weeklyRateKg, units).toLowerCase()}.`}
      </p>
      {suggested.reason && <p class="muted" data-testid="suggestion-reason">{inUnitsOf(suggested.reason, units)}</p>}
      {same
        ? <p class="muted">These are your targets.</p>
        : <button type="button" disabled={state.busy} onClick={() => void use()}>Use this</button>}
      {state.error && <p class="error" role="alert">{state.error}</p>}
      <p class="ok" role="status">{state.done ?? ""}</p>
    </>
  );
};

/** Home's insights: the trend's numbers under its chart, then expenditure and the suggested targets. */
export const TrendInWords = ({ insights }: { insights: Insights }) => {
  const { units } = useUnits();
  return (
    <div class="insights">
      {insights.trendKg === null ? <p>Too little data: no weigh-ins in the last 90 days.</p> : (
        <p data-testid="trend-weight">Trend weight <strong>{formatWeight(insights.trendKg, units)}</strong></p>
      )}
      {insights.trendKg !== null && (
        <p data-testid="weekly-rate">
          {insights.weeklyRateKg === null ? "Too little data for a weekly rate: it needs a week of trend."
            : `${rateInWords(insights.weeklyRateKg, units)}, the trend over the last ${insights.rateWindowDays} days.`}
        </p>
      )}
      <GoalInWords insights={insights} units={units} />
    </div>
  );
};

export const EnergyInWords = ({ insights, current, adopted }: {
  insights: Insights;
  current: { kcal: number | null; proteinG: number | null };
  adopted: () => void;
}) => {
  const { units } = useUnits();
  return (
    <div class="insights">
      <ExpenditureInWords expenditure={insights.expenditure} />
      <Suggestion suggested={insights.suggestedTargets} current={current} units={units} adopted={adopted} />
    </div>
  );
};
