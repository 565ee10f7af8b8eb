import { z } from "zod";
import { defineEndpoint, defineEvent, type EndpointDef } from "./bus.ts";
import { Measurement, Targets, WeightReading } from "./body-metrics.ts";
import { accountId, CalendarDate, TimestampMs, Uuid } from "./common.ts";
import { FoodItem } from "./nutrition.ts";
import { CustomFood, Recipe } from "./own-foods.ts";
import { ApiKeyList } from "./credentials.ts";
import { Profile } from "./insights.ts";
import { Workout } from "./workouts.ts";

/**
 * One page of one part of an account's export, asked by the gateway over the bus
 * (docs/decisions/0025-account-export-and-deletion.md). Rows come in the order of `key`; `after` is the key of the
 * last row already read (null: from the start).
 */
export const ExportPageRequest = z.object({
  accountId,
  after: z.string().nullable(),
  limit: z.number().int().min(1).max(500),
});

const exportPart = <R extends z.ZodType>(subject: string, service: string, row: R) =>
  defineEndpoint({ subject, service, request: ExportPageRequest, reply: z.object({ rows: z.array(row), next: z.string().nullable() }) });

export const DailyTotalRow = z
  .object({ date: CalendarDate, kcal: z.number(), proteinG: z.number(), itemCount: z.number().int() })
  .meta({ id: "DailyTotalRow", description: "A day's stored roll-up of its food items." });

export const DayMarkRow = z
  .object({ date: CalendarDate, mark: z.enum(["complete", "excluded"]) })
  .meta({ id: "DayMarkRow", description: "A food day marked complete or excluded; days without a row count when they have items." });

export const CoachUsageRow = z
  .object({ date: CalendarDate, calls: z.number().int(), tokens: z.number().int() })
  .meta({ id: "CoachUsageRow", description: "The coach calls and model tokens of one UTC day." });

/**
 * Every part of the export a service holds, in the order the document lists them. The gateway pages through each
 * in turn; a service serves the parts of its own (`serveAccountData` in the service kit).
 */
export const accountExportParts = {
  weighIns: exportPart("body-metrics.export.weigh-ins", "body-metrics", WeightReading),
  measurements: exportPart("body-metrics.export.measurements", "body-metrics", Measurement),
  targets: exportPart("body-metrics.export.targets", "body-metrics", Targets),
  profile: exportPart("insights.export.profile", "insights", Profile),
  foodItems: exportPart("nutrition.export.food-items", "nutrition", FoodItem),
  dailyTotals: exportPart("nutrition.export.daily-totals", "nutrition", DailyTotalRow),
  dayMarks: exportPart("nutrition.export.day-marks", "nutrition", DayMarkRow),
  customFoods: exportPart("nutrition.export.custom-foods", "nutrition", CustomFood),
  recipes: exportPart("nutrition.export.recipes", "nutrition", Recipe),
  workouts: exportPart("workouts.export.workouts", "workouts", Workout),
  coachUsage: exportPart("coach.export.usage", "coach", CoachUsageRow),
} satisfies Record<string, EndpointDef<typeof ExportPageRequest>>;

export type ExportPart = keyof typeof accountExportParts;
export type ExportRow<P extends ExportPart> = z.input<(typeof accountExportParts)[P]["reply"]>["rows"][number];

export const AccountProfile = z
  .object({ id: Uuid, email: z.email(), createdAt: TimestampMs })
  .meta({ id: "AccountProfile" });

const partArrays = Object.fromEntries(
  Object.entries(accountExportParts).map(([name, def]) => [name, def.reply.shape.rows]),
) as { [P in ExportPart]: (typeof accountExportParts)[P]["reply"]["shape"]["rows"] };

export const AccountExport = z
  .object({ exportedAt: TimestampMs, account: AccountProfile, apiKeys: ApiKeyList, ...partArrays })
  .meta({ id: "AccountExport", description: "Everything stored about the account, as one JSON document." });

export const identityEvents = {
  /** The account and its credentials are gone; every service deletes what it holds of it. */
  accountDeleted: defineEvent({ subject: "identity.account.deleted", stream: "IDENTITY", data: z.object({ accountId }) }),
};
