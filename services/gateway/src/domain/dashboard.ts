import type { Dashboard, DailyTotal, Targets, WeekWorkouts, WeightSummary } from "@fit/contracts";

export interface DashboardParts {
  weight: WeightSummary | null;
  targets: Targets | null;
  measurements: { measurementsLatest: Dashboard["measurementsLatest"]; shoulderToWaist: number | null };
  nutrition: DailyTotal | null;
  workouts: WeekWorkouts;
}

/**
 * The interface's shape, every field present: null or [] means nothing is logged, never that a service failed
 * (docs/decisions/0001-dashboard-503-not-partial.md).
 */
export const mergeDashboard = ({ weight, targets, measurements, nutrition, workouts }: DashboardParts): Dashboard => ({
  weight,
  targets,
  measurementsLatest: measurements.measurementsLatest,
  shoulderToWaist: measurements.shoulderToWaist,
  nutritionToday: nutrition,
  workoutsThisWeek: workouts,
});
