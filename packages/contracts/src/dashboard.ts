import { z } from "zod";
import { DashboardBodyPart, WeightSummary } from "./body-metrics.ts";
import { CalendarDate } from "./common.ts";
import { TrendNow } from "./insights.ts";
import { DailyTotal } from "./nutrition.ts";
import { WeekWorkouts } from "./workouts.ts";

export const DashboardQuery = z.object({
  date: CalendarDate.optional().meta({ description: "The snapshot's day: the weight summary up to its end, its nutrition, and the workouts of its ISO week (UTC); default the server's current UTC date." }),
});

/**
 * body-metrics' summary with insights' trend weight and rate spliced in
 * (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md).
 */
export const DashboardWeight = TrendNow.extend(WeightSummary.shape).meta({ id: "DashboardWeight" });

export const Dashboard = DashboardBodyPart.extend({
  weight: DashboardWeight.nullable(),
  nutritionToday: DailyTotal.nullable(),
  workoutsThisWeek: WeekWorkouts,
})
  .meta({ id: "Dashboard", description: "Home-screen snapshot. Every field is present; null when nothing is logged." });
export type Dashboard = z.infer<typeof Dashboard>;
