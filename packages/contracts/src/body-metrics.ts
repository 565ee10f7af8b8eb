import { z } from "zod";
import { defineEndpoint, defineEvent } from "./bus.ts";
import { accountId, CalendarDate, page, RangeQuery, TimestampMs, truncatedText, Uuid } from "./common.ts";
import { importEndpoints } from "./imported-rows.ts";
import { LoggedTimestampMs } from "./logged-time.ts";

const NOTE_MAX = 500;

export const WeightKg = z
  .number({ error: "weightKg must be a number of kilograms" })
  .min(9, { error: "weightKg must be between 9 and 320 kg" })
  .max(320, { error: "weightKg must be between 9 and 320 kg" })
  .meta({ description: "Kilograms, 9 to 320." });

export const BodyFatPct = z
  .number({ error: "bodyFatPct must be a number" })
  .min(1, { error: "bodyFatPct must be between 1 and 80 percent" })
  .max(80, { error: "bodyFatPct must be between 1 and 80 percent" })
  .meta({ description: "Percent, 1 to 80." });

const Note = truncatedText(NOTE_MAX).meta({
  description: "At most 500 characters; longer input is truncated to 500. Trimmed; empty is stored as null.",
});

export const WeightCreate = z
  .object({
    weightKg: WeightKg,
    bodyFatPct: BodyFatPct.optional(),
    note: Note.nullable().optional(),
    ts: LoggedTimestampMs.optional().meta({ description: "When the reading was taken; default now. At most a day ahead of the server's clock." }),
  })
  .meta({ id: "WeightCreate" });

export const WeightEdit = z
  .object({
    note: Note.nullable().meta({ description: "New note (at most 500 characters, truncated), or null to clear it." }),
  })
  .meta({ id: "WeightEdit" });

/** A reading a scale sends (`POST /api/ingest/weight`): the account by email, the same bounds as a manual one. */
export const WeightIngest = z
  .object({
    email: z.email({ error: "email must be an email address" }).transform((e) => e.toLowerCase()),
    weightKg: WeightKg,
    bodyFatPct: BodyFatPct.optional(),
    ts: LoggedTimestampMs.optional().meta({ description: "When the reading was taken; default now. At most a day ahead of the server's clock." }),
    externalId: z
      .string({ error: "externalId must be a string of 1 to 200 characters" })
      .trim()
      .min(1, { error: "externalId must be 1 to 200 characters" })
      .max(200, { error: "externalId must be 1 to 200 characters" })
      .optional()
      .meta({ description: "The scale's own id of the reading; a repeat is stored once. Without it, (email, ts) is the key." }),
  })
  .meta({ id: "WeightIngest" });

export const WeightSource = z.enum(["manual", "scale", "import"]);

export const WeightReading = z
  .object({
    id: Uuid,
    ts: TimestampMs,
    weightKg: z.number(),
    bodyFatPct: z.number().nullable(),
    note: z.string().nullable(),
    source: WeightSource,
    createdAt: TimestampMs,
  })
  .meta({ id: "WeightReading" });

/** A page of readings between two instants; measurements add a site filter. */
export const WeightListQuery = RangeQuery.extend({});
export const WeightPage = page(WeightReading, "WeightPage");

export const MeasurementSite = z
  .enum([
    "waist", "shoulders", "chest", "hips", "neck",
    "biceps_left", "biceps_right", "forearm_left", "forearm_right",
    "thigh_left", "thigh_right", "calf_left", "calf_right",
  ], { error: "site must be one of waist, shoulders, chest, hips, neck, biceps_left, biceps_right, forearm_left, forearm_right, thigh_left, thigh_right, calf_left, calf_right" })
  .meta({ id: "MeasurementSite" });
export type MeasurementSite = z.infer<typeof MeasurementSite>;

export const MeasurementCreate = z
  .object({
    site: MeasurementSite,
    valueCm: z
      .number({ error: "valueCm must be a number of centimetres" })
      .min(5, { error: "valueCm must be between 5 and 300 cm" })
      .max(300, { error: "valueCm must be between 5 and 300 cm" }),
    ts: LoggedTimestampMs.optional().meta({ description: "When it was measured; default now. At most a day ahead of the server's clock." }),
  })
  .meta({ id: "MeasurementCreate" });

export const Measurement = z
  .object({ id: Uuid, site: MeasurementSite, valueCm: z.number(), ts: TimestampMs, createdAt: TimestampMs })
  .meta({ id: "Measurement" });

export const MeasurementListQuery = RangeQuery.extend({ site: MeasurementSite.optional() });
export const MeasurementPage = page(Measurement, "MeasurementPage");

export const LatestMeasurement = z
  .object({ site: MeasurementSite, valueCm: z.number(), ts: TimestampMs })
  .meta({ id: "LatestMeasurement", description: "The latest value of one measured site." });
export type LatestMeasurement = z.infer<typeof LatestMeasurement>;

const KcalTarget = z
  .number({ error: "dailyKcalTarget must be a number" })
  .min(500, { error: "dailyKcalTarget must be between 500 and 10000 kcal" })
  .max(10_000, { error: "dailyKcalTarget must be between 500 and 10000 kcal" });
const ProteinTarget = z
  .number({ error: "proteinTargetG must be a number" })
  .min(0, { error: "proteinTargetG must be between 0 and 1000 g" })
  .max(1000, { error: "proteinTargetG must be between 0 and 1000 g" });
const GoalKg = (field: string) =>
  z
    .number({ error: `${field} must be a number of kilograms` })
    .min(9, { error: `${field} must be between 9 and 320 kg` })
    .max(320, { error: `${field} must be between 9 and 320 kg` });

export const TargetsInput = z
  .object({
    goalWeightKg: GoalKg("goalWeightKg").nullable().optional(),
    startWeightKg: GoalKg("startWeightKg").nullable().optional(),
    targetDate: TimestampMs.nullable().optional(),
    startDate: TimestampMs.nullable().optional(),
    dailyKcalTarget: KcalTarget.nullable().optional(),
    proteinTargetG: ProteinTarget.nullable().optional(),
  })
  .refine((t) => t.startDate == null || t.targetDate == null || t.targetDate > t.startDate, {
    error: "targetDate must be after startDate",
    path: ["targetDate"],
  })
  .meta({
    id: "TargetsInput",
    description: "Replaces the caller's targets. An omitted or null field is cleared.",
  });

export const Targets = z
  .object({
    id: z.number().int(),
    goalWeightKg: z.number().nullable(),
    startWeightKg: z.number().nullable(),
    targetDate: TimestampMs.nullable(),
    startDate: TimestampMs.nullable(),
    dailyKcalTarget: z.number().nullable(),
    proteinTargetG: z.number().nullable(),
  })
  .meta({ id: "Targets", description: "The caller's goals; a field not set is null." });
export type Targets = z.infer<typeof Targets>;

export const WeightSummary = z
  .object({
    latestKg: z.number(),
    weeklyAvgKg: z.number().meta({ description: "Mean of the readings in the 7 days ending at the newest one." }),
    bodyFatPct: z.number().nullable(),
    note: z.string().nullable(),
    trend: z
      .array(z.object({ ts: TimestampMs, kg: z.number() }))
      .meta({
        description:
          "One point per UTC day with readings among the 90 days up to the requested day, oldest first (at most 90): " +
          "`kg` is the day's mean (2 decimals), `ts` its newest reading.",
      }),
  })
  .meta({ id: "WeightSummary" });
export type WeightSummary = z.infer<typeof WeightSummary>;

/**
 * body-metrics' part of the dashboard: the first members of its JSON, which the gateway writes after them
 * without parsing (docs/decisions/0056-dashboard-spliced-from-replies.md).
 */
export const DashboardBodyPart = z.object({
  weight: WeightSummary.nullable(),
  targets: Targets.nullable(),
  measurementsLatest: z.array(LatestMeasurement),
  shoulderToWaist: z.number().nullable().meta({ description: "Latest shoulders ÷ latest waist, 3 decimals." }),
});

/**
 * One weigh-in an import writes; `externalId` is the same whenever the same reading is imported again, `id` the
 * same whenever the same import writes it again (after a crash), so the import can tell its own rows.
 */
export const ImportedWeighIn = z.object({
  id: Uuid,
  externalId: z.string().min(1).max(200),
  ts: LoggedTimestampMs,
  weightKg: WeightKg,
  bodyFatPct: BodyFatPct.nullable(),
});

/** One body measurement an import writes, identified as an imported weigh-in is. */
export const ImportedMeasurement = z.object({
  id: Uuid,
  externalId: z.string().min(1).max(200),
  ts: LoggedTimestampMs,
  site: MeasurementSite,
  valueCm: z.number().min(5).max(300),
});

/**
 * A body-fat reading an import writes apart from its weigh-in (Apple Health records the two separately): shown on
 * the imported weigh-in of the same instant that has none of its own, whichever of the two is imported first.
 */
export const ImportedBodyFat = z.object({
  id: Uuid,
  externalId: z.string().min(1).max(200),
  ts: LoggedTimestampMs,
  bodyFatPct: BodyFatPct,
});

const weighInImport = importEndpoints("body-metrics", "body-metrics.weight", ImportedWeighIn);
const bodyFatImport = importEndpoints("body-metrics", "body-metrics.body-fat", ImportedBodyFat);
const measurementImport = importEndpoints("body-metrics", "body-metrics.measurement", ImportedMeasurement);

export const bodyMetricsBus = {
  weightSummary: defineEndpoint({
    subject: "body-metrics.weight-summary.get",
    service: "body-metrics",
    request: z.object({ accountId, date: CalendarDate }),
    reply: WeightSummary.nullable(),
  }),
  /** The weight summary and the targets in one question: what the dashboard and the coach both read. */
  overview: defineEndpoint({
    subject: "body-metrics.overview.get",
    service: "body-metrics",
    request: z.object({ accountId, date: CalendarDate }),
    reply: z.object({ weight: WeightSummary.nullable(), targets: Targets.nullable() }),
  }),
  /** A scale's reading for an account the gateway resolved; stored once per (account, externalId or ts). */
  ingestWeight: defineEndpoint({
    subject: "body-metrics.weight.ingest",
    service: "body-metrics",
    request: z.object({
      accountId, weightKg: WeightKg, bodyFatPct: BodyFatPct.nullable(), ts: LoggedTimestampMs, externalId: z.string().min(1).max(200).nullable(),
    }),
    reply: z.object({ stored: z.boolean().meta({ description: "false: a repeat of a reading already stored." }) }),
  }),
  /** Weigh-ins stored once per (account, externalId), source `import`; an import's undo removes them. */
  importWeighIns: weighInImport.import,
  removeImportedWeighIns: weighInImport.removeImported,
  /** Measurements stored once per (account, externalId), source `import`; an import's undo removes them. */
  importMeasurements: measurementImport.import,
  removeImportedMeasurements: measurementImport.removeImported,
  /** Body fat stored once per (account, externalId) and attached to the imported weigh-in of its instant; undo takes it off again. */
  importBodyFat: bodyFatImport.import,
  removeImportedBodyFat: bodyFatImport.removeImported,
  /** The readings between two instants, oldest first: what a copy of them (insights' read model) is repaired from. */
  weightReadings: defineEndpoint({
    subject: "body-metrics.weight-readings.get",
    service: "body-metrics",
    request: z.object({ accountId, from: TimestampMs, to: TimestampMs }),
    reply: z.array(z.object({ id: Uuid, ts: TimestampMs, weightKg: z.number() })),
  }),
  /** Sets the daily kcal and protein targets, keeping the goal weight and dates: adopting insights' suggestion. */
  setDailyTargets: defineEndpoint({
    subject: "body-metrics.daily-targets.set",
    service: "body-metrics",
    request: z.object({ accountId, dailyKcalTarget: z.number().min(500).max(10_000), proteinTargetG: z.number().min(0).max(1000) }),
    reply: Targets,
  }),
  /** The overview and the latest measurements in one question: everything the dashboard reads here. */
  dashboard: defineEndpoint({
    subject: "body-metrics.dashboard.get",
    service: "body-metrics",
    request: z.object({ accountId, date: CalendarDate }),
    reply: DashboardBodyPart,
  }),
};

export const bodyMetricsEvents = {
  weightLogged: defineEvent({
    subject: "body-metrics.weight.logged",
    stream: "BODY_METRICS",
    data: z.object({ accountId, readingId: Uuid, ts: TimestampMs, weightKg: z.number() }),
  }),
  /** A reading is gone; `ts` says which day of a copy it leaves. */
  weightDeleted: defineEvent({
    subject: "body-metrics.weight.deleted",
    stream: "BODY_METRICS",
    data: z.object({ accountId, readingId: Uuid, ts: TimestampMs }),
  }),
  targetsUpdated: defineEvent({
    subject: "body-metrics.targets.updated",
    stream: "BODY_METRICS",
    data: z.object({ accountId, targets: Targets.nullable() }),
  }),
};
