import { coachBus, utcDay, type ActivityType, type WorkoutEnergyEstimate } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

interface Recorded {
  activityType: ActivityType;
  startedAt: number;
  durationS: number;
  movingDurationS: number | null;
  distanceM: number | null;
  avgHr: number | null;
  energyKcal: number | null;
}

/**
 * The coach's estimates, in the activities' order, for those that state no energy: null for the others. One
 * question per UTC day of their starts, since the coach weighs the person as on that day; null for a day whose
 * question is not answered in time, for an import does not wait on it longer than that.
 */
export const estimateMissingEnergy = async (
  { app, bus }: Pick<ServiceContext<Store>, "app" | "bus">,
  accountId: string,
  activities: readonly Recorded[],
  timeoutMs: number,
): Promise<(WorkoutEnergyEstimate | null)[]> => {
  const estimates: (WorkoutEnergyEstimate | null)[] = activities.map(() => null);
  const byDay = new Map<string, number[]>();
  activities.forEach((activity, i) => {
    if (activity.energyKcal !== null) return;
    const day = utcDay(activity.startedAt);
    byDay.set(day, [...(byDay.get(day) ?? []), i]);
  });
  await Promise.all(
    [...byDay].map(async ([date, indexes]) => {
      const workouts = indexes.map((i) => {
        const { activityType, durationS, movingDurationS, distanceM, avgHr } = activities[i]!;
        return { activityType, durationS: Math.max(1, movingDurationS || durationS), distanceM, avgHr };
      });
      try {
        const reply = await bus.request(coachBus.estimateWorkoutEnergy, { accountId, date, workouts }, { timeoutMs });
        indexes.forEach((index, k) => (estimates[index] = reply.estimates[k] ?? null));
      } catch (error) {
        app.log.warn({ err: error }, "no energy estimate for imported workouts: the coach did not answer");
      }
    }),
  );
  return estimates;
};
