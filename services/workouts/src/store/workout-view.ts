import type { ActivityType, Exercise, Workout } from "@fit/contracts";
import type { Workout as Row } from "./generated/client.ts";

export const workoutView = (row: Row): Workout => ({
  id: row.id,
  source: row.source as Workout["source"],
  activityType: row.activityType as ActivityType,
  summary: row.summary,
  description: row.description,
  startedAt: row.startedAt.getTime(),
  durationS: row.durationS,
  movingDurationS: row.movingDurationS,
  distanceM: row.distanceM,
  elevationGainM: row.elevationGainM,
  energyKcal: row.energyKcal,
  avgHr: row.avgHr,
  maxHr: row.maxHr,
  avgPowerW: row.avgPowerW,
  avgCadence: row.avgCadence,
  exercises: row.exercises as Exercise[],
  energyEstimate:
    row.energySource === null ? null : { low: row.energyLow ?? 0, high: row.energyHigh ?? 0, source: row.energySource },
  ...(row.eventId === null ? {} : { eventId: row.eventId }),
  createdAt: row.createdAt.getTime(),
});
