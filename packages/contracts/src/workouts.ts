import { z } from "zod";
import { CalendarDate, TimestampMs, Uuid } from "./common.ts";

export const WorkoutSource = z.enum(["manual", "phone_health", "watch_device", "activity_app"]);
export const ActivityType = z.enum([
  "run", "ride", "swim", "walk", "hike", "strength_training", "yoga", "rowing", "elliptical", "crossfit", "other",
]);

export const Exercise = z
  .object({
    exercise: z.string(),
    sets: z.number().int().nullable(),
    reps: z.number().int().nullable(),
    weightLb: z.number().nullable().meta({ description: "Pounds." }),
    durationS: z.number().nullable(),
    distanceM: z.number().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ id: "Exercise" });

export const Workout = z
  .object({
    id: Uuid,
    source: WorkoutSource,
    activityType: ActivityType,
    summary: z.string(),
    description: z.string(),
    startedAt: TimestampMs,
    durationS: z.number().int(),
    movingDurationS: z.number().int().nullable(),
    distanceM: z.number().nullable(),
    elevationGainM: z.number().nullable(),
    energyKcal: z.number().nullable(),
    avgHr: z.number().nullable(),
    maxHr: z.number().nullable(),
    avgPowerW: z.number().nullable(),
    avgCadence: z.number().nullable(),
    exercises: z.array(Exercise),
    createdAt: TimestampMs,
  })
  .meta({ id: "Workout", description: "A logged workout; metric fields are null when not stated." });

export const WorkoutDescribe = z
  .object({
    text: z.string().trim().min(1, { error: "text must be 1 to 4000 characters" }).max(4000, { error: "text must be 1 to 4000 characters" }),
    date: CalendarDate.optional(),
    tz: z
      .number({ error: "tz must be a number of minutes" })
      .int({ error: "tz must be an integer number of minutes" })
      .min(-840, { error: "tz must be between -840 and 840 minutes" })
      .max(840, { error: "tz must be between -840 and 840 minutes" })
      .default(0)
      .meta({ description: "Date.prototype.getTimezoneOffset() of the client: minutes to add to local time to reach UTC." }),
  })
  .meta({ id: "WorkoutDescribe" });
