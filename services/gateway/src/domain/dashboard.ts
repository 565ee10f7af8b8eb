/** The JSON texts of the dashboard's parts, each as the service that validated it wrote it. */
export interface DashboardParts {
  /** body-metrics' `DashboardBodyPart`: an object, whose members come first. */
  body: string;
  /** nutrition's `DailyTotal` or null. */
  nutrition: string;
  /** workouts' `WeekWorkouts`. */
  workouts: string;
  /** insights' `TrendNow`; null when insights did not answer in time. */
  trend: string | null;
}

/** What the dashboard's weight gains when insights did not answer in time. */
const UNKNOWN_TREND = '{"trendKg":null,"weeklyRateKg":null}';
/** How body-metrics' part begins when it has a weight: `weight` is its first member (its contract's order). */
const WEIGHT_OBJECT = '{"weight":{';

/**
 * The interface's shape, every field present: null or [] means nothing is logged, never that a service failed
 * (docs/decisions/0001-dashboard-503-not-partial.md), but for the weight's trend and rate, which are null as well when
 * insights did not answer in time (derived numbers, not logged data: docs/decisions/0075). Written from the parts' texts without parsing them: the
 * trend alone is 90 points that would be parsed, checked and written again
 * (docs/decisions/0056-dashboard-spliced-from-replies.md).
 */
export const dashboardJson = ({ body, nutrition, workouts, trend }: DashboardParts): string =>
  `${withTrend(body, trend ?? UNKNOWN_TREND).slice(0, -1)},"nutritionToday":${nutrition},"workoutsThisWeek":${workouts}}`;

/**
 * insights' trend weight and rate as the first members of the weight, before body-metrics' own
 * (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md); a null weight stays null.
 */
const withTrend = (body: string, trend: string) =>
  body.startsWith(WEIGHT_OBJECT) ? `${WEIGHT_OBJECT}${trend.slice(1, -1)},${body.slice(WEIGHT_OBJECT.length)}` : body;
