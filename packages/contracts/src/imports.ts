import { z } from "zod";
import { defineEvent } from "./bus.ts";
import { accountId, TimestampMs, Uuid } from "./common.ts";
import { isTimeZone } from "./insights.ts";

/**
 * Imports of a person's history from the apps they leave: a file uploaded once, read off the request path in
 * steps any replica can take, its rows written through the owning services (docs/decisions/0076-imports-as-background-jobs.md).
 */

/** The largest file an import takes; it is kept in the imports service's database until it has been read. */
export const IMPORT_FILE_LIMIT = 2 * 1024 * 1024 * 1024;
/** How many refused rows an import keeps with their reasons; the count goes on. */
export const IMPORT_REFUSALS_KEPT = 20;

export const ImportState = z
  .enum(["queued", "reading", "done", "failed", "cancelled", "undoing", "undone"])
  .meta({
    description: "queued: stored, not yet read; reading: being read; done: every row read; failed: the file cannot be " +
      "read (see `error`); cancelled: stopped before the end (the rows written so far stay, DELETE again removes them); " +
      "undoing: its rows are being removed; undone: its rows were removed (`counts` still say what it had created).",
  });

/** The file layouts the imports read; `layout` of an import says which one its header matched. */
export const ImportLayout = z.enum(["withings", "fitbit", "renpho", "libra", "happy_scale", "myfitnesspal", "cronometer", "apple_health", "strava", "garmin"]);
export type ImportLayout = z.infer<typeof ImportLayout>;

/**
 * What an import's rows become: weigh-ins (body-metrics), food items (nutrition), a health app's several kinds, or
 * an activity app's workouts (workouts).
 */
export const ImportKind = z.enum(["weigh-ins", "food", "health-export", "activities"]);
export type ImportKind = z.infer<typeof ImportKind>;

const count = z.number().int().min(0);

/** The kinds of row an import reads. */
export const ImportRowKind = z.enum(["weigh-in", "measurement", "body-fat", "workout", "food-item"]);
export type ImportRowKind = z.infer<typeof ImportRowKind>;

export const ImportRefusal = z.object({
  line: z.number().int().min(1).meta({ description: "The line of the file, the header being line 1." }),
  reason: z.string(),
});

export const ImportSummary = z
  .object({
    id: Uuid,
    fileName: z.string().nullable(),
    bytes: count.meta({ description: "The size of the uploaded file." }),
    state: ImportState,
    layout: ImportLayout.nullable().meta({ description: "The layout its header was recognised as; null until read." }),
    kind: ImportKind.meta({
      description: "What its rows become: weigh-ins (a scale's CSV), food items (a food diary), the several kinds of a health " +
        "app's export (see `kinds`), or workouts (an activity app's export; a watch's, Garmin's, with its weigh-ins).",
    }),
    counts: z.object({
      read: count.meta({ description: "Rows read from the file." }),
      created: count.meta({ description: "Rows this import added." }),
      skipped: count.meta({ description: "Rows already stored (the same file, or the same reading, imported before)." }),
      refused: count.meta({ description: "Rows that could not be read; the first ones are in `refusals`." }),
    }),
    kinds: z.partialRecord(ImportRowKind, z.object({ read: count, created: count, skipped: count })).meta({
      description: "The counts of each kind of row read so far; a kind the file has none of is left out. A health export's " +
        "body-fat reading is shown on the weigh-in of its instant; created counts it once stored, whether or not that weigh-in exists yet.",
    }),
    refusals: z.array(ImportRefusal).max(IMPORT_REFUSALS_KEPT),
    progress: z.number().min(0).max(1).meta({ description: "The share of the file's bytes read, 0 to 1." }),
    error: z.string().nullable().meta({ description: "Why a failed import could not be read." }),
    createdAt: TimestampMs,
    finishedAt: TimestampMs.nullable(),
  })
  .meta({ id: "ImportSummary" });
export type ImportSummary = z.input<typeof ImportSummary>;

export const ImportList = z.object({ items: z.array(ImportSummary) }).meta({ id: "ImportList" });

export const ImportQuery = z.object({
  tz: z.string().max(64).refine(isTimeZone, { error: "tz must be an IANA time zone name such as Europe/Berlin" }).optional().meta({
    description: "The IANA zone of times the file writes without one (default UTC); a time with its own offset keeps it.",
    examples: ["Europe/Berlin"],
  }),
  unit: z.enum(["kg", "lb"]).optional().meta({
    description: "The unit of weights whose header names none (Fitbit, Happy Scale); default kg. A header's own unit wins.",
  }),
  name: z.string().max(200).optional().meta({ description: "The file's name, shown in the list." }),
});

/** The JSON form of an upload: a small file's text, for a client that cannot send raw bytes. */
export const ImportText = z
  .object({
    text: z.string().min(1, { error: "text must not be empty" }).max(60_000, { error: "text must be at most 60000 characters" })
      .meta({ description: "The file's text.", examples: ['Date,"Weight (kg)","Fat mass (kg)"\n2026-03-01 07:00:00,80.5,16.1\n'] }),
  })
  .meta({ id: "ImportText" });

export const importsEvents = {
  /**
   * The next step of an import is due: a work item for any replica's worker. `step` lets a replica holding a
   * redelivered, already taken step ignore it.
   */
  importStep: defineEvent({
    subject: "imports.import.step",
    stream: "IMPORTS",
    data: z.object({ accountId, importId: Uuid, step: z.number().int().min(0) }),
  }),
};
