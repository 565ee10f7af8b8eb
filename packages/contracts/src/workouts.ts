import { z } from "zod";
import { defineEndpoint, defineEvent } from "./bus.ts";
import { accountId, CalendarDate, page, RangeQuery, TimestampMs, truncatedText, Uuid } from "./common.ts";
import { EstimateSource } from "./estimates.ts";
import { LoggedCalendarDate, LoggedTimestampMs } from "./logged-time.ts";

export const WorkoutSource = z.enum(["manual", "phone_health", "watch_device", "activity_app"], {
  error: "source must be one of manual, phone_health, watch_device, activity_app",
});
export const ActivityType = z.enum(
  ["run", "ride", "swim", "walk", "hike", "strength_training", "yoga", "rowing", "elliptical", "crossfit", "other"],
  { error: "activityType must be one of run, ride, swim, walk, hike, strength_training, yoga, rowing, elliptical, crossfit, other" },
);
export type ActivityType = z.infer<typeof ActivityType>;

const bounded = (field: string, min: number, max: number, unit: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, { error: `${field} must be between ${min} and ${max} ${unit}` })
    .max(max, { error: `${field} must be between ${min} and ${max} ${unit}` });
const wholeSeconds = (field: string, min: number) =>
  bounded(field, min, 172_800, "seconds").int({ error: `${field} must be a whole number of seconds` });

/** An exercise as sent (notes trimmed and truncated)… */
export const ExerciseInput = z
  .object({
    exercise: z.string({ error: "exercise must be a string" }).trim().min(1).max(100, { error: "exercise must be 1 to 100 characters" }),
    sets: bounded("sets", 0, 100, "").int().nullable(),
    reps: bounded("reps", 0, 1000, "").int().nullable(),
    weightLb: bounded("weightLb", 0, 2000, "lb").nullable().meta({ description: "Pounds." }),
    durationS: bounded("durationS", 0, 86_400, "seconds").nullable(),
    distanceM: bounded("distanceM", 0, 1_000_000, "m").nullable(),
    notes: truncatedText(500).nullable(),
  })
  .meta({ id: "ExerciseInput" });

/** …and as stored and shown. */
export const Exercise = ExerciseInput.extend({ exercise: z.string(), notes: z.string().nullable() }).meta({ id: "Exercise" });
export type Exercise = z.infer<typeof Exercise>;

/** The measured fields every way of logging a workout shares; null when not stated. */
const metrics = {
  movingDurationS: wholeSeconds("movingDurationS", 0).nullable(),
  distanceM: bounded("distanceM", 0, 1_000_000, "m").nullable(),
  elevationGainM: bounded("elevationGainM", 0, 20_000, "m").nullable(),
  energyKcal: bounded("energyKcal", 0, 20_000, "kcal").nullable(),
  avgHr: bounded("avgHr", 20, 260, "bpm").nullable(),
  maxHr: bounded("maxHr", 20, 260, "bpm").nullable(),
  avgPowerW: bounded("avgPowerW", 0, 3000, "W").nullable(),
  avgCadence: bounded("avgCadence", 0, 300, "per minute").nullable(),
};

export const EnergyEstimate = z
  .object({ low: z.number(), high: z.number(), source: EstimateSource })
  .meta({ id: "EnergyEstimate", description: "Range and provenance of an estimated energyKcal." });

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
    energyEstimate: EnergyEstimate.nullable().meta({
      description: "Set when energyKcal is an estimate (from the MET table: a description or a file that states none), not stated by the user or a device; null otherwise.",
    }),
    eventId: Uuid.optional().meta({
      description: "Only on a leg of a multisport event (a triathlon file's swim, bike, run and transitions, each its own workout): the id every leg of that event shares.",
    }),
    createdAt: TimestampMs,
  })
  .meta({ id: "Workout", description: "A logged workout; metric fields are null when not stated." });
export type Workout = z.infer<typeof Workout>;

export const WorkoutDescribe = z
  .object({
    text: z
      .string({ error: "text must be a string" }).trim()
      .min(1, { error: "text must be 1 to 4000 characters" }).max(4000, { error: "text must be 1 to 4000 characters" })
      .meta({ description: "What was done, in words.", examples: ["ran 5 km in 28 minutes this morning"] }),
    date: LoggedCalendarDate.optional().meta({ description: "The local day of the workout; default the client's today (from tz). At most the day after the server's UTC today." }),
    tz: z
      .number({ error: "tz must be a number of minutes" })
      .int({ error: "tz must be an integer number of minutes" })
      .min(-840, { error: "tz must be between -840 and 840 minutes" })
      .max(840, { error: "tz must be between -840 and 840 minutes" })
      .default(0)
      .meta({ description: "Date.prototype.getTimezoneOffset() of the client: minutes to add to local time to reach UTC." }),
  })
  .meta({ id: "WorkoutDescribe" });

const ExerciseList = z.array(ExerciseInput).max(50, { error: "exercises must hold at most 50 items" });

export const WorkoutPatch = z
  .object({
    activityType: ActivityType,
    summary: z.string().trim().min(1).max(200, { error: "summary must be 1 to 200 characters" }),
    description: z.string().trim().max(4000, { error: "description must be at most 4000 characters" }),
    startedAt: LoggedTimestampMs,
    durationS: wholeSeconds("durationS", 1),
    ...metrics,
    exercises: ExerciseList,
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { error: "at least one field must be given" })
  .meta({ id: "WorkoutPatch", description: "Only the fields sent change; null clears a metric. Setting energyKcal drops its estimate." });

export const WorkoutCreate = z
  .object({
    activityType: ActivityType,
    startedAt: LoggedTimestampMs,
    durationS: wholeSeconds("durationS", 1),
    description: z
      .string({ error: "description must be a string" }).trim()
      .min(1, { error: "description must be 1 to 4000 characters" }).max(4000, { error: "description must be 1 to 4000 characters" })
      .meta({ description: "The user's words, or the summary of what a photo showed." }),
    summary: z.string().trim().min(1).max(200, { error: "summary must be 1 to 200 characters" }).optional()
      .meta({ description: "Default \"Run 5.00 km\", \"Yoga 45 min\" from the type and distance or duration." }),
    ...Object.fromEntries(Object.entries(metrics).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof metrics]: z.ZodOptional<(typeof metrics)[K]>;
    },
    energyEstimate: EnergyEstimate.nullable().optional().meta({
      description: "The range and provenance of an estimated energyKcal checked before saving (POST /api/workouts/photo/preview), " +
        "kept as sent; leave it out when energyKcal was typed or corrected.",
    }),
    exercises: ExerciseList.optional(),
  })
  .refine((workout) => !workout.energyEstimate || typeof workout.energyKcal === "number", {
    path: ["energyEstimate"], error: "energyEstimate goes with energyKcal only",
  })
  .meta({ id: "WorkoutCreate", description: "A workout as the user checked it (source `manual`); unstated metrics are null." });

/** Imports come from elsewhere: `manual` is what the user describes, never an import. */
const ImportSource = z.enum(["phone_health", "watch_device", "activity_app"], {
  error: "source must be one of phone_health, watch_device, activity_app",
});

export const WorkoutImportRow = z
  .object({
    source: ImportSource,
    externalId: z.string().trim().min(1).max(200, { error: "externalId must be 1 to 200 characters" }),
    activityType: ActivityType,
    startedAt: LoggedTimestampMs,
    durationS: wholeSeconds("durationS", 1),
    summary: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(4000).optional(),
    ...Object.fromEntries(Object.entries(metrics).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof metrics]: z.ZodOptional<(typeof metrics)[K]>;
    },
    exercises: ExerciseList.optional(),
  })
  .meta({
    id: "WorkoutImportRow",
    description: "A workout as another app or device recorded it. The same (source, externalId) again updates that workout.",
  });

export const WorkoutImportQuery = z.object({
  source: ImportSource.default("watch_device").meta({
    description: "Where an uploaded file came from (ignored for a JSON row, which names its own).",
  }),
});

/** What one import did to one workout. */
const ImportOutcome = z.object({
  created: z.boolean().meta({ description: "false when this re-imported a known file or externalId, or matched a workout already logged." }),
  workout: Workout,
  duplicateOf: Uuid.optional().meta({
    description: "Set when the file is an activity already logged from another file (same type, starts within 5 minutes, times overlapping by 80 % or more): that workout's id, which is `workout.id` too.",
  }),
  action: z.enum(["updated", "skipped"]).optional().meta({
    description: "With duplicateOf: `updated` when this file was richer (more of the metrics and a track) and its figures replaced the logged ones, `skipped` when it was not and nothing changed.",
  }),
});

export const WorkoutImported = ImportOutcome.extend({
  legs: z.array(ImportOutcome).optional().meta({
    description: "Only for a multisport file: every leg in the file's order, each its own workout sharing one eventId; the top-level fields are the first leg's.",
  }),
}).meta({ id: "WorkoutImported" });
export type WorkoutImported = z.infer<typeof WorkoutImported>;

export const WorkoutSplit = z
  .object({
    km: z.number().int().meta({ description: "1 for the first kilometre." }),
    distanceM: z.number().meta({ description: "1000, or less for the last split." }),
    durationS: z.number().int().meta({ description: "Elapsed seconds over the split, pauses included." }),
  })
  .meta({ id: "WorkoutSplit" });

export const WorkoutRoute = z
  .object({
    segments: z
      .array(z.array(z.tuple([z.number(), z.number()])))
      .meta({ description: "`[lat, lon]` in degrees per recorded segment, thinned to at most 1000 points; empty without a track." }),
    splits: z.array(WorkoutSplit).meta({ description: "Per kilometre along the track; empty when the track has no times." }),
  })
  .meta({ id: "WorkoutRoute", description: "The track of an imported file, for drawing, and its kilometre splits." });

export const WorkoutListQuery = RangeQuery.extend({ activityType: ActivityType.optional() });
export const WorkoutPage = page(Workout, "WorkoutPage");

export type WeekWorkouts = z.infer<typeof WeekWorkouts>;
export const WeekWorkouts = z
  .object({
    from: CalendarDate.meta({ description: "Monday of the week (UTC)." }),
    to: CalendarDate.meta({ description: "Sunday of the week (UTC)." }),
    count: z.number().int(),
    durationS: z.number().int(),
    distanceM: z.number(),
    energyKcal: z.number(),
  })
  .meta({ id: "WeekWorkouts", description: "Totals of the workouts started in the ISO week (Monday to Sunday, UTC) of the day." });

const WorkoutChanged = z.object({ accountId, workoutId: Uuid, startedAt: TimestampMs, activityType: ActivityType });

export const workoutsEvents = {
  workoutLogged: defineEvent({ subject: "workouts.workout.logged", stream: "WORKOUTS", data: WorkoutChanged }),
  workoutUpdated: defineEvent({ subject: "workouts.workout.updated", stream: "WORKOUTS", data: WorkoutChanged }),
  workoutDeleted: defineEvent({ subject: "workouts.workout.deleted", stream: "WORKOUTS", data: WorkoutChanged }),
};

/**
 * At most this many workouts per `workouts.workout.import` question: ten rows with their longest routes (1000
 * points and 1000 splits each) stay under NATS' 1 MiB message.
 */
export const WORKOUT_IMPORT_BATCH = 10;

const routePoints = (segments: readonly (readonly unknown[])[]) => segments.reduce((sum, segment) => sum + segment.length, 0);

/**
 * One workout an import writes (docs/decisions/0077-workout-imports-over-the-bus.md): an activity as an export
 * records it, figures null where it states none. `externalId` is the same whenever the same activity is imported
 * again, `id` the same whenever the same import writes it again (after a crash), so the import can tell its own rows.
 */
export const ImportedWorkoutRow = z.object({
  id: Uuid,
  externalId: z.string().min(1).max(200),
  source: ImportSource,
  activityType: ActivityType,
  name: z.string().trim().min(1).max(200).nullable().meta({ description: "The summary; null: one made of the type and distance or duration." }),
  description: z.string().trim().min(1).max(4000).nullable().meta({ description: "null: the summary." }),
  startedAt: LoggedTimestampMs,
  durationS: wholeSeconds("durationS", 0).meta({ description: "Elapsed seconds; 0 is stored as 1." }),
  ...metrics,
  route: z
    .object({
      segments: z
        .array(z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])))
        .refine((segments) => routePoints(segments) <= 1000, { error: "a route holds at most 1000 points" }),
      splits: z.array(WorkoutSplit).max(1000),
    })
    .nullable()
    .meta({ description: "The track as `parseActivityFile` (@fit/activity-files) draws it; null without positions." }),
  eventId: Uuid.nullable().meta({ description: "Shared by the legs of one multisport recording; null for a workout on its own." }),
});

export const workoutsBus = {
  weekTotals: defineEndpoint({
    subject: "workouts.week-totals.get",
    service: "workouts",
    request: z.object({ accountId, date: CalendarDate }),
    reply: WeekWorkouts,
  }),
  /**
   * Workouts stored once per (account, source, externalId), as a file's are: an activity already logged another
   * way is matched and the richer recording kept; energy a row does not state is estimated.
   */
  importWorkouts: defineEndpoint({
    subject: "workouts.workout.import",
    service: "workouts",
    request: z.object({ accountId, rows: z.array(ImportedWorkoutRow).min(1).max(WORKOUT_IMPORT_BATCH) }),
    reply: z.object({
      rows: z.array(
        z.object({
          id: Uuid.meta({
            description: "The workout that holds the row, in the rows' order: the row's own id when this question or an " +
              "earlier one with that id stored it; another when the account already had its externalId or the activity.",
          }),
          outcome: z.enum(["created", "existing", "updated", "skipped"]).meta({
            description: "`created`: stored now; `existing`: its externalId was stored before, nothing changed; `updated`: " +
              "the activity was logged another way and this row, richer, replaced its figures; `skipped`: it was, and this row was not richer.",
          }),
        }),
      ),
    }),
  }),
  /** Removes imported workouts by id (never one logged another way, nor one of a single-file upload): an import's undo. */
  removeImportedWorkouts: defineEndpoint({
    subject: "workouts.workout.remove-imported",
    service: "workouts",
    request: z.object({ accountId, ids: z.array(Uuid).min(1).max(500) }),
    reply: z.object({ removed: z.number().int().min(0) }),
  }),
};
