/** The JSON texts of the dashboard's parts, each as the service that validated it wrote it. */
export interface DashboardParts {
  /** body-metrics' `DashboardBodyPart`: an object, whose members come first. */
  body: string;
  /** nutrition's `DailyTotal` or null. */
  nutrition: string;
  /** workouts' `WeekWorkouts`. */
  workouts: string;
}

/**
 * The interface's shape, every field present: null or [] means nothing is logged, never that a service failed
 * (docs/decisions/0001-dashboard-503-not-partial.md). Written from the parts' texts without parsing them: the
 * trend alone is 90 points that would be parsed, checked and written again
 * (docs/decisions/0056-dashboard-spliced-from-replies.md).
 */
export const dashboardJson = ({ body, nutrition, workouts }: DashboardParts): string =>
  `${body.slice(0, -1)},"nutritionToday":${nutrition},"workoutsThisWeek":${workouts}}`;
