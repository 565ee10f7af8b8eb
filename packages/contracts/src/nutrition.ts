import { z } from "zod";
import { defineEndpoint, defineEvent } from "./bus.ts";
import { accountId, CalendarDate, TimestampMs, truncatedText, Uuid } from "./common.ts";
import { EstimateRange, EstimateSource, FoodEstimates } from "./estimates.ts";
import { FoodId } from "./foods.ts";
import { importEndpoints } from "./imported-rows.ts";
import { LoggedCalendarDate } from "./logged-time.ts";

/** A macro's total is the sum over the items that know it (docs/decisions/0067-day-macros-sum-what-is-known.md). */
const knownPartOfTotal = (what: string) =>
  z.number().nullable().meta({
    description: `Total ${what} in grams over the day's items that give it; null when none does. See macrosUnknownItems.`,
  });

export const Adherence = z.enum(["under", "on", "over"]);

export const DailyTotal = z
  .object({
    userEmail: z.string().meta({ description: "Email of the owning account." }),
    date: CalendarDate,
    kcal: z.number().meta({ description: "Total calories logged that day." }),
    proteinG: z.number().meta({ description: "Total protein in grams that day." }),
    fatG: knownPartOfTotal("fat"),
    carbsG: knownPartOfTotal("carbohydrate"),
    fiberG: knownPartOfTotal("fibre"),
    macrosUnknownItems: z.number().int().meta({
      description: "How many of the day's items lack fat, carbs or fibre (typed without them): fatG, carbsG and fiberG leave those out.",
    }),
    hitProtein: z.boolean().meta({ description: "proteinG >= the protein target; false without a target." }),
    adherence: Adherence.nullable().meta({
      description: "under < 90 % of the kcal target <= on <= 110 % < over; null without a kcal target.",
    }),
  })
  .meta({ id: "DailyTotal" });
export type DailyTotal = z.infer<typeof DailyTotal>;

export const DailyTotalList = z
  .array(DailyTotal)
  .meta({ id: "DailyTotalList", description: "At most 60 of the caller's most recent daily totals, newest first." });

export type Meal = z.infer<typeof Meal>;
export const Meal = z.enum(["breakfast", "lunch", "dinner", "snack"], {
  error: "meal must be one of breakfast, lunch, dinner, snack",
});

const bounded = (field: string, max: number, unit: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, { error: `${field} must be between 0 and ${max} ${unit}` })
    .max(max, { error: `${field} must be between 0 and ${max} ${unit}` });

const ItemFields = {
  date: LoggedCalendarDate,
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .min(1, { error: "name must be 1 to 200 characters" })
    .max(200, { error: "name must be 1 to 200 characters" }),
  kcal: bounded("kcal", 10_000, "kcal"),
  proteinG: bounded("proteinG", 1000, "g"),
  carbsG: bounded("carbsG", 2000, "g").nullable().optional(),
  fatG: bounded("fatG", 1000, "g").nullable().optional(),
  fiberG: bounded("fiberG", 1000, "g").nullable().optional(),
  quantity: z
    .number({ error: "quantity must be a number" })
    .positive({ error: "quantity must be greater than 0" })
    .max(100_000, { error: "quantity must be at most 100000" })
    .nullable()
    .optional(),
  unit: z.string().trim().min(1).max(30, { error: "unit must be at most 30 characters" }).nullable().optional(),
  meal: Meal.nullable().optional(),
  note: truncatedText(500).nullable().optional(),
};

/** The numbers an item logged from the database gets from its food; sending them too would be ambiguous. */
const COMPUTED = ["kcal", "proteinG", "carbsG", "fatG", "fiberG", "quantity", "unit"] as const;

export const FoodPortionChoice = z
  .object({
    grams: z
      .number({ error: "portion.grams must be a number" })
      .gt(0, { error: "portion.grams must be greater than 0 and at most 5000" })
      .max(5000, { error: "portion.grams must be greater than 0 and at most 5000" })
      .optional()
      .meta({ description: "This many grams of the food." }),
    measure: z
      .number({ error: "portion.measure must be a number" })
      .int({ error: "portion.measure must be the id of one of the food's portions" })
      .min(1, { error: "portion.measure must be the id of one of the food's portions" })
      .optional()
      .meta({ description: "One of the food's household measures, by its `id` (GET /api/foods/{id}); `count` of them." }),
    count: z
      .number({ error: "portion.count must be a number" })
      .gt(0, { error: "portion.count must be greater than 0 and at most 100" })
      .max(100, { error: "portion.count must be greater than 0 and at most 100" })
      .optional()
      .meta({ description: "How many of `measure` (default 1): 1.5 × `1 cup, chopped`." }),
    servings: z
      .number({ error: "portion.servings must be a number" })
      .gt(0, { error: "portion.servings must be greater than 0 and at most 100" })
      .max(100, { error: "portion.servings must be greater than 0 and at most 100" })
      .optional()
      .meta({ description: "This many of the food's serving (its first measure called `serving…`); 400 when it has none." }),
  })
  .strict()
  .superRefine((portion, context) => {
    const kinds = [portion.grams, portion.measure, portion.servings].filter((kind) => kind !== undefined).length;
    if (kinds !== 1) context.addIssue({ code: "custom", path: [], message: "portion must give exactly one of grams, measure or servings" });
    else if (portion.count !== undefined && portion.measure === undefined) {
      context.addIssue({ code: "custom", path: ["count"], message: "portion.count goes with portion.measure only" });
    }
  })
  .meta({ id: "FoodPortionChoice", description: "How much of the food: `{grams}`, `{measure, count?}` or `{servings}`." });
export type FoodPortionChoice = z.infer<typeof FoodPortionChoice>;

export const FoodItemCreate = z
  .object({
    ...ItemFields,
    name: ItemFields.name.optional().meta({ description: "Required for a typed item; from the database, the food's name unless given." }),
    kcal: ItemFields.kcal.optional().meta({ description: "Required for a typed item; computed from the food otherwise." }),
    proteinG: ItemFields.proteinG.optional().meta({ description: "Required for a typed item; computed from the food otherwise." }),
    foodId: FoodId.optional().meta({ description: "Log a food of the database (GET /api/foods) instead of typed numbers; needs `portion`." }),
    portion: FoodPortionChoice.optional(),
    estimate: z
      .object({ kcal: EstimateRange, proteinG: EstimateRange, source: EstimateSource })
      .optional()
      .meta({
        description: "Typed items only: the range and provenance of numbers estimated elsewhere and checked before logging (a " +
          "label read by POST /api/nutrition/photo/preview, an estimate of POST /api/nutrition/estimate), kept as sent. Leave it " +
          "out when the numbers were corrected by hand.",
      }),
  })
  .superRefine((item, context) => {
    if (item.foodId === undefined) {
      if (item.portion !== undefined) context.addIssue({ code: "custom", path: ["portion"], message: "portion goes with foodId only" });
      for (const field of ["name", "kcal", "proteinG"] as const) {
        if (item[field] === undefined) context.addIssue({ code: "custom", path: [field], message: "is required" });
      }
      return;
    }
    if (item.portion === undefined) context.addIssue({ code: "custom", path: ["portion"], message: "is required with foodId" });
    for (const field of [...COMPUTED, "estimate"] as const) {
      if (item[field] !== undefined) context.addIssue({ code: "custom", path: [field], message: "is computed from foodId and portion; leave it out" });
    }
  })
  .meta({
    id: "FoodItemCreate",
    description:
      "Either typed numbers (`name`, `kcal`, `proteinG`, optional macros), or a food of the database (`foodId`) and a `portion`, " +
      "from which the server computes kcal, protein, fat, carbs and fiber and records `source`.",
  });
export const FoodItemPatch = z
  .object(ItemFields)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { error: "at least one field must be given" })
  .meta({ id: "FoodItemPatch", description: "Only the fields sent change; null clears an optional field." });

export const FoodItem = z
  .object({
    id: Uuid,
    date: CalendarDate,
    name: z.string(),
    kcal: z.number(),
    proteinG: z.number(),
    carbsG: z.number().nullable(),
    fatG: z.number().nullable(),
    fiberG: z.number().nullable().meta({ description: "Dietary fibre in grams; null when unknown." }),
    quantity: z.number().nullable(),
    unit: z.string().nullable(),
    meal: Meal.nullable(),
    note: z.string().nullable(),
    estimate: z
      .object({ kcal: EstimateRange, proteinG: EstimateRange, source: EstimateSource })
      .nullable()
      .meta({ description: "Set when the coach estimated kcal and protein (POST /api/nutrition/describe); null once they are corrected by hand." }),
    source: z.string().nullable().meta({
      description: "Where the numbers came from when logged from the food database: the food's id (`usda:<fdc_id>`); null for typed numbers.",
    }),
    grams: z.number().nullable().meta({ description: "The portion's weight in grams when logged from the food database, else null." }),
    createdAt: TimestampMs,
    updatedAt: TimestampMs,
  })
  .meta({ id: "FoodItem" });

export const FoodItemList = z.array(FoodItem).meta({ id: "FoodItemList" });
export const FoodItemsQuery = z.object({ date: CalendarDate });

const CopyEnd = <D extends z.ZodType<string>>(date: D, meal: string) =>
  z.object({ date, meal: Meal.optional().meta({ description: meal }) });

export const FoodItemCopy = z
  .object({
    from: CopyEnd(CalendarDate, "Only the items of this meal; the whole day when left out."),
    to: CopyEnd(LoggedCalendarDate, "The meal the copies are logged in; each keeps its own meal when left out."),
  })
  .superRefine(({ from, to }, context) => {
    if (from.date === to.date && (to.meal ?? from.meal) === from.meal) {
      context.addIssue({ code: "custom", path: ["to"], message: "to must be another date or meal than from" });
    }
  })
  .meta({
    id: "FoodItemCopy",
    description: "Log again: the items of a past meal (`from.meal`) or day, copied to `to.date` (and `to.meal`).",
  });

export const FoodDescribe = z
  .object({
    text: z
      .string({ error: "text must be a string" }).trim()
      .min(1, { error: "text must be 1 to 4000 characters" }).max(4000, { error: "text must be 1 to 4000 characters" })
      .meta({ description: "What was eaten, in words.", examples: ["two eggs and a slice of toast"] }),
    date: LoggedCalendarDate.optional().meta({ description: "The day to log on; default the server's current UTC date. At most the day after it." }),
    meal: Meal.nullable().optional(),
  })
  .meta({ id: "FoodDescribe" });

export const FoodDescribed = z
  .object({
    items: FoodItemList,
    unrecognized: z.array(z.string()).meta({ description: "Parts of the text no food was recognised in; nothing was logged for them." }),
    reply: z.string().meta({ description: "What was logged, in words, saying that the numbers are estimates." }),
  })
  .meta({ id: "FoodDescribed" });

export const FoodEstimateRequest = FoodDescribe.pick({ text: true }).meta({ id: "FoodEstimateRequest" });

export const FoodEstimated = FoodEstimates.meta({
  id: "FoodEstimated",
  description: "The estimated items, not logged: a preview to correct, then log with POST /api/nutrition/items.",
});

export const DayMark = z
  .enum(["auto", "complete", "excluded"], { error: "mark must be one of auto, complete, excluded" })
  .meta({
    description:
      "`auto`: the day counts when it has items. `complete`: everything eaten is logged, so the day counts even when " +
      "thin or empty (a fast). `excluded`: the log is not the whole day, so it never counts.",
  });
export type DayMark = z.infer<typeof DayMark>;

export const NutritionDayParams = z.object({ date: CalendarDate });

export const NutritionDayMarkInput = z.object({ mark: DayMark }).meta({ id: "NutritionDayMarkInput" });

export const NutritionDay = z
  .object({
    date: CalendarDate,
    mark: DayMark,
    counted: z.boolean().meta({ description: "Whether the expenditure estimate takes the day's intake: `complete`, or `auto` with items." }),
    itemCount: z.number().int(),
    kcal: z.number().meta({ description: "Calories of the day's items; a day that does not count says nothing of what was eaten." }),
  })
  .meta({ id: "NutritionDay", description: "Whether a food day counts as the whole day's intake." });
export type NutritionDay = z.infer<typeof NutritionDay>;

/** What a consumer needs to recompute a day: which account, which day(s). */
const ItemChanged = z.object({
  accountId,
  itemId: Uuid,
  date: CalendarDate,
  previousDate: CalendarDate.nullable().optional(),
});

/** The events of a food item's change: nutrition rolls its daily totals up from these. */
export const nutritionItemEvents = {
  itemLogged: defineEvent({ subject: "nutrition.item.logged", stream: "NUTRITION", data: ItemChanged }),
  itemUpdated: defineEvent({ subject: "nutrition.item.updated", stream: "NUTRITION", data: ItemChanged }),
  itemDeleted: defineEvent({ subject: "nutrition.item.deleted", stream: "NUTRITION", data: ItemChanged }),
};

/** A food of the database as an estimate needs it: per-100 g values and household portions with their grams. */
const DatabaseFood = z.object({
  id: FoodId,
  name: z.string(),
  per100g: z.object({
    kcal: z.number(),
    proteinG: z.number(),
    fatG: z.number().nullable(),
    carbsG: z.number().nullable(),
    fiberG: z.number().nullable(),
  }),
  portions: z.array(z.object({ amount: z.number(), unit: z.string(), grams: z.number() })),
  inHead: z.boolean(),
});
export type DatabaseFood = z.infer<typeof DatabaseFood>;

export const nutritionEvents = {
  ...nutritionItemEvents,
  /** A day was marked complete or excluded, or given back to the default: whether it counts changed. */
  dayMarked: defineEvent({ subject: "nutrition.day.marked", stream: "NUTRITION", data: z.object({ accountId, date: CalendarDate }) }),
};

/**
 * One food item an import writes (a food diary's meal or item): `externalId` is the same whenever the same entry
 * is imported again, `id` the same whenever the same import writes it again (after a crash), so the import can
 * tell its own rows (docs/decisions/0076-imports-as-background-jobs.md).
 */
export const ImportedFoodItem = z.object({
  id: Uuid,
  externalId: z.string().min(1).max(200),
  date: ItemFields.date,
  name: ItemFields.name,
  kcal: ItemFields.kcal,
  proteinG: ItemFields.proteinG,
  carbsG: bounded("carbsG", 2000, "g").nullable(),
  fatG: bounded("fatG", 1000, "g").nullable(),
  fiberG: bounded("fiberG", 1000, "g").nullable(),
  meal: Meal.nullable(),
  quantity: z.number().positive().max(100_000).nullable(),
  unit: z.string().trim().min(1).max(30).nullable(),
});
export type ImportedFoodItem = z.infer<typeof ImportedFoodItem>;

const foodItemImport = importEndpoints("nutrition", "nutrition.items", ImportedFoodItem);

export const nutritionBus = {
  dayTotal: defineEndpoint({
    subject: "nutrition.day-total.get",
    service: "nutrition",
    request: z.object({ accountId, email: z.string(), date: CalendarDate }),
    reply: DailyTotal.nullable(),
  }),
  /**
   * Each day with items or a mark between two days (inclusive), summed from the items themselves, oldest first,
   * with whether it counts (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md); `asOf` is when
   * nutrition's database read them (its clock, as PostgreSQL writes a timestamp), so a copy keeps the newest of
   * two answers whichever comes last.
   */
  intakeDays: defineEndpoint({
    subject: "nutrition.intake-days.get",
    service: "nutrition",
    request: z.object({ accountId, from: CalendarDate, to: CalendarDate }),
    reply: z.object({
      asOf: z.string().min(1),
      days: z.array(z.object({ date: CalendarDate, kcal: z.number(), proteinG: z.number(), itemCount: z.number().int(), counted: z.boolean() })),
    }),
  }),
  dayItems: defineEndpoint({
    subject: "nutrition.day-items.get",
    service: "nutrition",
    request: z.object({ accountId, date: CalendarDate }),
    reply: z.array(z.object({ name: z.string(), kcal: z.number(), proteinG: z.number() })),
  }),
  /**
   * The food database's best food for each phrase (the words naming a food, amounts left out), in order; null
   * where none fits (docs/decisions/0074-food-estimates-from-the-food-database.md). `inHead`: every word of the
   * phrase is in the food's name before its first comma ("Macaroni and cheese, …"), so a phrase joined by "and"
   * names that one food rather than two.
   */
  matchFoods: defineEndpoint({
    subject: "nutrition.foods.match",
    service: "nutrition",
    request: z.object({ accountId, phrases: z.array(z.string().min(1).max(200)).min(1).max(40) }),
    reply: z.object({ matches: z.array(DatabaseFood.nullable()) }),
  }),
  /** Food items stored once per (account, externalId), each with its event; an import's undo removes them. */
  importItems: foodItemImport.import,
  removeImportedItems: foodItemImport.removeImported,
};
