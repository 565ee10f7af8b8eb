import { workoutsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { isoWeekOf } from "../domain/placement.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask workouts over the bus; stop the returned handles on close. */
export const serveWorkoutQueries = (bus: Bus, store: Store) => [
  bus.serve(workoutsBus.weekTotals, async ({ accountId, date }) => {
    const week = isoWeekOf(date);
    const totals = await store.totalsBetween(accountId, week.fromMs, week.toMs);
    return { from: week.from, to: week.to, ...totals, energyKcal: Math.round(totals.energyKcal), distanceM: Math.round(totals.distanceM) };
  }),
];
