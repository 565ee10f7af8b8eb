import type { z } from "zod";
import { AccountExport } from "./account.ts";
import { Ack, CreatedAck, IdParams } from "./common.ts";
import {
  MeasurementCreate, MeasurementListQuery, MeasurementPage, Targets, TargetsInput,
  WeightCreate, WeightEdit, WeightIngest, WeightListQuery, WeightPage,
} from "./body-metrics.ts";
import { AgentQuery, AgentReply, AgentRequest, CoachUsage } from "./coach.ts";
import {
  ApiKeyCreate, ApiKeyCreated, ApiKeyList, ClientIdParams, ConnectedAppList, RevokedCount, RevokeOthersQuery, SessionList,
} from "./credentials.ts";
import { Dashboard, DashboardQuery } from "./dashboard.ts";
import {
  DailyTotalList, FoodDescribe, FoodDescribed, FoodEstimated, FoodItemCopy, FoodEstimateRequest, FoodItem, FoodItemCreate, FoodItemList, FoodItemPatch, FoodItemsQuery,
  NutritionDay, NutritionDayMarkInput, NutritionDayParams,
} from "./nutrition.ts";
import { BarcodeParams, Food, FoodIdParams, FoodMatchList, FoodSearchQuery, RecentFoodList, RecentFoodsQuery } from "./foods.ts";
import {
  CustomFood, CustomFoodInput, CustomFoodList, CustomFoodParams, CustomFoodPatch, Recipe, RecipeInput, RecipeList, RecipeParams,
} from "./own-foods.ts";
import {
  Workout, WorkoutCreate, WorkoutDescribe, WorkoutImported, WorkoutImportQuery, WorkoutImportRow, WorkoutListQuery, WorkoutPage, WorkoutPatch,
  WorkoutRoute,
} from "./workouts.ts";
import {
  FoodFromPhoto, FoodPhotoPreview, FoodPhotoQuery, PHOTO_FILE_LIMIT, PHOTO_MEDIA_TYPES, WorkoutFromPhoto, WorkoutPhotoPreview, WorkoutPhotoQuery,
} from "./photos.ts";
import { Insights, InsightsQuery, Profile, ProfileInput } from "./insights.ts";
import { IMPORT_FILE_LIMIT, ImportList, ImportQuery, ImportSummary, ImportText } from "./imports.ts";
import type { Scope } from "./scopes.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One HTTP operation: where it lives, who may call it, what it takes and returns. Services build their routes
 * from these, the gateway checks scopes and forwards with them, and /openapi.json is generated from them.
 */
export interface Operation {
  readonly id: string;
  readonly method: Method;
  /** Fastify-style path (`/api/weight/:id`). */
  readonly path: string;
  /** The service that serves it; the gateway forwards the path's prefix there. */
  readonly service: "gateway" | "body-metrics" | "nutrition" | "workouts" | "insights" | "imports";
  readonly tag: string;
  readonly scope: Scope;
  readonly summary: string;
  readonly description?: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly params?: z.ZodObject;
  readonly response: z.ZodType;
  /** The success status, when it is not 200 (202: accepted, finished later). */
  readonly status?: 202;
  /** The response is a download (`Content-Disposition: attachment`) under this file name. */
  readonly attachment?: string;
  /** HTTP statuses of the error envelope this operation documents beyond the common ones. */
  readonly errors: readonly number[];
  /**
   * Which credential may call it, when not the default (a session cookie, an API key or an agent token holding
   * `scope`): `session` only a signed-in session (403 for any other credential), `ingest-token` only the shared
   * scale-ingest token (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md,
   * docs/decisions/0021-scale-ingest-token.md).
   */
  readonly credential?: "session" | "ingest-token";
  /**
   * Creates something, and takes an `Idempotency-Key` header: a retry with the same key and request gets the
   * first answer again instead of writing twice (docs/decisions/0062-idempotency-keys.md).
   */
  readonly idempotencyKey?: true;
  /**
   * A route that also takes a file: these media types arrive as raw bytes, up to `limitBytes` (not 64 KiB).
   * `streamed`: the file is read as it arrives and never held whole, so it costs a process's budget of request
   * bodies in flight only the piece in hand, not `limitBytes` (docs/decisions/0076-imports-as-background-jobs.md).
   */
  readonly upload?: { readonly limitBytes: number; readonly mediaTypes: readonly string[]; readonly streamed?: true };
}

/** A language-model call can fail upstream (502), time out (504), or find the coach busy or the quota spent (429). */
const modelErrors = [400, 413, 415, 429, 502, 503, 504];
const ACTIVITY_FILE_LIMIT = 10 * 1024 * 1024;

const define = <const O extends Operation>(op: O): O => op;

export const operations = {
  logWeight: define({
    id: "logWeight", method: "POST", path: "/api/weight", service: "body-metrics", tag: "Weight", scope: "weight:write",
    summary: "Log a weigh-in",
    description: "Records a manual body-weight reading. Returns the new reading's id beside `ok`.",
    body: WeightCreate, response: CreatedAck, errors: [400, 409, 413, 415, 422], idempotencyKey: true,
  }),
  listWeights: define({
    id: "listWeights", method: "GET", path: "/api/weight", service: "body-metrics", tag: "Weight", scope: "weight:read",
    summary: "List weigh-ins", description: "The caller's readings, newest first, in pages; `from`/`to` bound `ts`.",
    query: WeightListQuery, response: WeightPage, errors: [400],
  }),
  editWeightNote: define({
    id: "editWeightNote", method: "PATCH", path: "/api/weight/:id", service: "body-metrics", tag: "Weight",
    scope: "weight:write", summary: "Edit a weigh-in note", description: "Updates or clears (null) the note of a past reading.",
    params: IdParams, body: WeightEdit, response: Ack, errors: [400, 404, 413, 415],
  }),
  deleteWeight: define({
    id: "deleteWeight", method: "DELETE", path: "/api/weight/:id", service: "body-metrics", tag: "Weight",
    scope: "weight:write", summary: "Delete a weigh-in", params: IdParams, response: Ack, errors: [400, 404],
  }),
  logMeasurement: define({
    id: "logMeasurement", method: "POST", path: "/api/measurements", service: "body-metrics", tag: "Measurements",
    scope: "measurements:write", summary: "Log a body measurement", body: MeasurementCreate, response: CreatedAck,
    errors: [400, 409, 413, 415, 422], idempotencyKey: true,
  }),
  listMeasurements: define({
    id: "listMeasurements", method: "GET", path: "/api/measurements", service: "body-metrics", tag: "Measurements",
    scope: "measurements:read", summary: "List body measurements",
    description: "Newest first, in pages; filter by `site` and by `from`/`to` on `ts`.",
    query: MeasurementListQuery, response: MeasurementPage, errors: [400],
  }),
  deleteMeasurement: define({
    id: "deleteMeasurement", method: "DELETE", path: "/api/measurements/:id", service: "body-metrics",
    tag: "Measurements", scope: "measurements:write", summary: "Delete a body measurement", params: IdParams,
    response: Ack, errors: [400, 404],
  }),
  getTargets: define({
    id: "getTargets", method: "GET", path: "/api/targets", service: "body-metrics", tag: "Targets",
    scope: "targets:read", summary: "Get goals", description: "The caller's targets, or null when none are set.",
    response: Targets.nullable(), errors: [],
  }),
  putTargets: define({
    id: "putTargets", method: "PUT", path: "/api/targets", service: "body-metrics", tag: "Targets",
    scope: "targets:write", summary: "Set goals", description: "Replaces the caller's targets; omitted fields are cleared.",
    body: TargetsInput, response: Targets, errors: [400, 413, 415],
  }),
  listDailyTotals: define({
    id: "listDailyTotals", method: "GET", path: "/api/nutrition", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:read", summary: "List daily totals",
    description: "At most 60 of the caller's most recent daily roll-ups, newest first. `hitProtein` and `adherence` " +
      "use the caller's current targets. A day whose items were all deleted disappears.",
    response: DailyTotalList, errors: [],
  }),
  logFoodItem: define({
    id: "logFoodItem", method: "POST", path: "/api/nutrition/items", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Log a food item",
    description:
      "Logs one food item on a day; the day's total includes it as soon as this returns. Typed numbers, or a food of " +
      "the database, one of your foods or a recipe (`custom:`/`recipe:` ids; a recipe by servings or grams) with a portion: " +
      "404 for a food that does not exist (or is another account's), 400 for a measure that is not one of its " +
      "portions, 422 for a food without nutrient values; nothing is stored then. The item keeps its numbers when the " +
      "food is later edited or deleted.",
    body: FoodItemCreate, response: FoodItem, errors: [400, 409, 413, 415, 422], idempotencyKey: true,
  }),
  listFoodItems: define({
    id: "listFoodItems", method: "GET", path: "/api/nutrition/items", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:read", summary: "A day's food items", description: "Oldest first, as they were logged.",
    query: FoodItemsQuery, response: FoodItemList, errors: [400],
  }),
  editFoodItem: define({
    id: "editFoodItem", method: "PATCH", path: "/api/nutrition/items/:id", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Correct a food item",
    description: "Changes only the fields sent; moving it to another `date` updates both days' totals.",
    params: IdParams, body: FoodItemPatch, response: FoodItem, errors: [400, 404, 413, 415],
  }),
  deleteFoodItem: define({
    id: "deleteFoodItem", method: "DELETE", path: "/api/nutrition/items/:id", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Delete a food item",
    description: "Removes the item and recomputes the day's totals.", params: IdParams, response: Ack, errors: [400, 404],
  }),
  getNutritionDay: define({
    id: "getNutritionDay", method: "GET", path: "/api/nutrition/days/:date", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:read", summary: "Whether a food day counts",
    description: "The day's mark and whether the expenditure estimate counts it; any day has one (`auto` until marked).",
    params: NutritionDayParams, response: NutritionDay, errors: [400],
  }),
  markNutritionDay: define({
    id: "markNutritionDay", method: "PUT", path: "/api/nutrition/days/:date", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Mark a food day complete or excluded",
    description:
      "A day without food logged is unknown, not zero: by default (`auto`) a day counts for the expenditure estimate " +
      "when it has items. `complete` counts it however little is logged; `excluded` never counts it; `auto` goes back " +
      "to the default. The insights follow within moments.",
    params: NutritionDayParams, body: NutritionDayMarkInput, response: NutritionDay, errors: [400, 413, 415],
  }),
  searchFoods: define({
    id: "searchFoods", method: "GET", path: "/api/foods", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "Search the food database",
    description:
      "USDA SR Legacy foods whose description has every typed word (or one a typo or plural away: `banan`, " +
      "`chiken brest`), best match first: a match in the food's head (`Bananas` of `Bananas, raw`) before one " +
      "elsewhere (`Bread, banana`), plain foods before branded, restaurant and baby foods. Foods the source has " +
      "no energy value for are left out. Typed words nothing matches are ignored; none matching gives []. Your own " +
      "foods and recipes whose name (or brand) has every typed word come first (`custom:`/`recipe:` ids).",
    query: FoodSearchQuery, response: FoodMatchList, errors: [400],
  }),
  listRecentFoods: define({
    id: "listRecentFoods", method: "GET", path: "/api/foods/recent", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "The caller's recent and frequent foods",
    description:
      "Foods the caller logged in the last 90 days (the database's, their own foods and recipes, barcode products), for " +
      "logging again: each log counts, halved for every two weeks of its age, so a food eaten often and lately comes first. " +
      "A food since deleted is left out. The same weight lifts the database's foods in GET /api/foods.",
    query: RecentFoodsQuery, response: RecentFoodList, errors: [400],
  }),
  getFood: define({
    id: "getFood", method: "GET", path: "/api/foods/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "A food with its portions",
    description: "A food of the database (`usda:…`), a product looked up by its barcode before (`off:…`, as GET " +
      "/api/foods/barcode/{code}), one of your foods (portions: 1 its serving, then its measures) or a recipe (portion 1: " +
      "a serving). Another account's food or recipe is a 404.",
    params: FoodIdParams, response: Food, errors: [400, 404, 502, 503, 504],
  }),
  getFoodByBarcode: define({
    id: "getFoodByBarcode", method: "GET", path: "/api/foods/barcode/:code", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "A packaged food by its barcode (Open Food Facts)",
    description:
      "Only when the operator enables it (`FOOD_BARCODE_URL`, an Open Food Facts-compatible API): otherwise 503. The " +
      "product's values per 100 g and its serving, as a food with the id `off:<gtin>` (a UPC-A's 12 digits gain a " +
      "leading 0), which `POST /api/nutrition/items` logs with `foodId` and `portion` like a food of the database. " +
      "A product is fetched once and then served from the service's cache for `FOOD_BARCODE_CACHE_DAYS` (30); a " +
      "stale one is fetched again, and served as it was when Open Food Facts does not answer. 404: no such product; " +
      "502: an answer that is not a product; 504: no answer in time.",
    params: BarcodeParams, response: Food, errors: [400, 404, 502, 503, 504],
  }),
  listCustomFoods: define({
    id: "listCustomFoods", method: "GET", path: "/api/custom-foods", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "Your own foods", description: "Every food you made, by name.",
    response: CustomFoodList, errors: [],
  }),
  createCustomFood: define({
    id: "createCustomFood", method: "POST", path: "/api/custom-foods", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Make a food of your own",
    description: "Figures per 100 g or per serving; it is then searched, read and logged like a database food under its " +
      "`custom:<uuid>` id.",
    body: CustomFoodInput, response: CustomFood, errors: [400, 409, 413, 415], idempotencyKey: true,
  }),
  getCustomFood: define({
    id: "getCustomFood", method: "GET", path: "/api/custom-foods/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "One of your foods, as entered", params: CustomFoodParams, response: CustomFood, errors: [400, 404],
  }),
  editCustomFood: define({
    id: "editCustomFood", method: "PATCH", path: "/api/custom-foods/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Edit one of your foods",
    description: "Only the fields sent change. Recipes holding it are recomputed from its new figures (same grams); " +
      "items already logged keep their numbers.",
    params: CustomFoodParams, body: CustomFoodPatch, response: CustomFood, errors: [400, 404, 413, 415],
  }),
  deleteCustomFood: define({
    id: "deleteCustomFood", method: "DELETE", path: "/api/custom-foods/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Delete one of your foods",
    description: "409 while a recipe holds it (the message names the recipes); items already logged keep their numbers.",
    params: CustomFoodParams, response: Ack, errors: [400, 404, 409],
  }),
  listRecipes: define({
    id: "listRecipes", method: "GET", path: "/api/recipes", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "Your recipes", description: "Every recipe you made, by name, with its figures.",
    response: RecipeList, errors: [],
  }),
  createRecipe: define({
    id: "createRecipe", method: "POST", path: "/api/recipes", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Make a recipe",
    description: "Ingredients are database foods or your own (not recipes), each with a portion as when logging. The " +
      "figures per serving are the ingredients' sums divided by `servings`; per 100 g, by `cookedWeightG` or else the " +
      "ingredients' weight. 404 for an ingredient that does not exist, 400 for a measure it lacks, 422 for one without " +
      "nutrient values. Logged as `recipe:<uuid>` with `portion.servings` or `portion.grams`.",
    body: RecipeInput, response: Recipe, errors: [400, 404, 409, 413, 415, 422], idempotencyKey: true,
  }),
  getRecipe: define({
    id: "getRecipe", method: "GET", path: "/api/recipes/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:read", summary: "One of your recipes", params: RecipeParams, response: Recipe, errors: [400, 404],
  }),
  replaceRecipe: define({
    id: "replaceRecipe", method: "PUT", path: "/api/recipes/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Change a recipe",
    description: "Replaces it whole, refused as creating one is; items already logged keep their numbers.",
    params: RecipeParams, body: RecipeInput, response: Recipe, errors: [400, 404, 413, 415, 422],
  }),
  deleteRecipe: define({
    id: "deleteRecipe", method: "DELETE", path: "/api/recipes/:id", service: "nutrition", tag: "Foods",
    scope: "nutrition:write", summary: "Delete a recipe", description: "Items already logged from it keep their numbers.",
    params: RecipeParams, response: Ack, errors: [400, 404],
  }),
  copyFoodItems: define({
    id: "copyFoodItems", method: "POST", path: "/api/nutrition/copy", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Log a meal or day again",
    description:
      "Copies the items of `from.date` (only its `from.meal` when given) to `to.date`, in `to.meal` when given, else each in its " +
      "own meal. Each copy keeps its name, portion, figures, estimate and `source`; the answer is the new items, oldest first. " +
      "404 when nothing is logged there; 422 above 100 items.",
    body: FoodItemCopy, response: FoodItemList, errors: [400, 404, 409, 413, 415, 422], idempotencyKey: true,
  }),
  describeFood: define({
    id: "describeFood", method: "POST", path: "/api/nutrition/describe", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Log food from a description",
    description: "\"two eggs and toast\" → the estimated items, logged on the day like any other item, each with its " +
      "estimate's range and source. Without a language model configured, the built-in table of common foods estimates.",
    body: FoodDescribe, response: FoodDescribed, errors: [...modelErrors, 409, 422], idempotencyKey: true,
  }),
  logFoodPhoto: define({
    id: "logFoodPhoto", method: "POST", path: "/api/nutrition/photo", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Log food from a photo of its nutrition-facts label",
    description: "A JPEG, PNG, WebP or HEIC photo of a label as the raw body (up to 8 MiB and 50 megapixels, 16 for HEIC). US (per serving) and EU " +
      "(per 100 g) layouts: the item gets the kcal and protein of `grams`, else of `servings` (default 1) of the label's " +
      "serving size, with the label's range and the source `ocr` (or `model:<name>`); `read` holds the text read. A label " +
      "read too poorly, or without the numbers the amount needs, is a 422 saying what was read and what is missing; " +
      "nothing is logged. The photo and its EXIF are not kept.",
    query: FoodPhotoQuery, response: FoodFromPhoto, errors: [400, 413, 415, 422, 429, 502, 503, 504], idempotencyKey: true,
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  previewFoodPhoto: define({
    id: "previewFoodPhoto", method: "POST", path: "/api/nutrition/photo/preview", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Read a nutrition-facts label from a photo, without logging it",
    description: "The same photo, query, reading and refusals as POST /api/nutrition/photo, but nothing is logged: the answer is " +
      "the item it would log (as POST /api/nutrition/estimate gives one) and `read`. The web app shows it to correct, then logs " +
      "it with POST /api/nutrition/items, sending the item's ranges and `source` as `estimate` unless its numbers were changed.",
    query: FoodPhotoQuery, response: FoodPhotoPreview, errors: [400, 413, 415, 422, 429, 502, 503, 504],
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  estimateFood: define({
    id: "estimateFood", method: "POST", path: "/api/nutrition/estimate", service: "nutrition", tag: "Nutrition",
    scope: "nutrition:write", summary: "Estimate food from a description, without logging it",
    description: "The same estimate as POST /api/nutrition/describe (and the same coach quota), but nothing is logged: " +
      "the web app shows it as a preview to correct, then logs each item with POST /api/nutrition/items.",
    body: FoodEstimateRequest, response: FoodEstimated, errors: [...modelErrors, 422],
  }),
  describeWorkout: define({
    id: "describeWorkout", method: "POST", path: "/api/workouts/describe", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from a description",
    description: "Parses the text into a normalized workout (source `manual`) and logs it. `date` + `tz` place a " +
      "workout the text dates only loosely (\"this morning\"); without a time of day it is placed at local noon, or " +
      "to end now on today. Unstated metrics are null; energyKcal is estimated (with its range) when not stated. A " +
      "workout the text places more than a day ahead of the server's clock is a 400, and nothing is logged.",
    body: WorkoutDescribe, response: Workout, errors: [...modelErrors, 409, 422], idempotencyKey: true,
  }),
  logWorkoutPhoto: define({
    id: "logWorkoutPhoto", method: "POST", path: "/api/workouts/photo", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from a photo of a console or summary screen",
    description: "A JPEG, PNG, WebP or HEIC photo as the raw body (up to 8 MiB and 50 megapixels, 16 for HEIC): duration, distance, kcal, " +
      "average heart rate and the activity are read from it into the same row as POST /api/workouts/describe (source " +
      "`manual`, `description` = `text` or the summary read), by the coach's language model when one is configured " +
      "(`read.source` `model:<name>`), else on-device (`ocr`). The start is the time `text` gives, read as " +
      "/api/workouts/describe reads it (\"yesterday 7am\"), else the photo's capture time (EXIF, its offset) less the " +
      "duration, else now. `read` holds the text read, its source and the fields read with low confidence. A " +
      "photo read too poorly, or showing no duration, is a 422 saying what was read and what is missing; nothing is " +
      "logged. The photo and its EXIF are not kept.",
    query: WorkoutPhotoQuery, response: WorkoutFromPhoto, errors: [400, 409, 413, 415, 422, 429, 502, 503, 504], idempotencyKey: true,
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  previewWorkoutPhoto: define({
    id: "previewWorkoutPhoto", method: "POST", path: "/api/workouts/photo/preview", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Read a workout from a photo, without logging it",
    description: "The same photo, query, reading and refusals as POST /api/workouts/photo, but nothing is logged: the answer is " +
      "the workout it would log, without `id` and `createdAt`, and `read`. The web app shows it to correct, then saves it " +
      "with POST /api/workouts, sending `energyEstimate` only when `energyKcal` was left as estimated.",
    query: WorkoutPhotoQuery, response: WorkoutPhotoPreview, errors: [400, 413, 415, 422, 429, 502, 503, 504],
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  createWorkout: define({
    id: "createWorkout", method: "POST", path: "/api/workouts", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from its fields",
    description: "A workout as the user typed or checked it (a photo's preview corrected), logged with source `manual`. " +
      "Unsent metrics are null; nothing is estimated. A start more than a day ahead of the server's clock is a 400.",
    body: WorkoutCreate, response: Workout, errors: [400, 409, 413, 415], idempotencyKey: true,
  }),
  listWorkouts: define({
    id: "listWorkouts", method: "GET", path: "/api/workouts", service: "workouts", tag: "Workouts", scope: "workouts:read",
    summary: "List workouts", description: "Newest `startedAt` first, in pages; `from`/`to` bound `startedAt`.",
    query: WorkoutListQuery, response: WorkoutPage, errors: [400],
  }),
  getWorkout: define({
    id: "getWorkout", method: "GET", path: "/api/workouts/:id", service: "workouts", tag: "Workouts", scope: "workouts:read",
    summary: "Get a workout", params: IdParams, response: Workout, errors: [400, 404],
  }),
  getWorkoutRoute: define({
    id: "getWorkoutRoute", method: "GET", path: "/api/workouts/:id/route", service: "workouts", tag: "Workouts",
    scope: "workouts:read", summary: "A workout's route and splits",
    description: "The track of an imported GPX, TCX or FIT file, thinned for drawing, and its splits per kilometre. " +
      "Empty lists for a workout without a positioned track (described, sent as a JSON row, or recorded indoors).",
    params: IdParams, response: WorkoutRoute, errors: [400, 404],
  }),
  editWorkout: define({
    id: "editWorkout", method: "PATCH", path: "/api/workouts/:id", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Correct a workout", params: IdParams, body: WorkoutPatch, response: Workout,
    errors: [400, 404, 413, 415],
  }),
  deleteWorkout: define({
    id: "deleteWorkout", method: "DELETE", path: "/api/workouts/:id", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Delete a workout", params: IdParams, response: Ack, errors: [400, 404],
  }),
  importWorkout: define({
    id: "importWorkout", method: "POST", path: "/api/workouts/import", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Import a workout (GPX, TCX, FIT file or a JSON row)",
    description: "A GPX, TCX or FIT file as the raw body (up to 10 MiB; its format is read from its content), or a " +
      "normalized JSON row with `source` and `externalId`. Distance, moving time, elevation gain and heart rate are " +
      "computed from a file's track. The same file or (source, externalId) again updates the workout it made. A " +
      "multisport FIT file (a triathlon) becomes a workout per session, transitions included, linked by one `eventId` " +
      "and all listed in `legs`. A file of an activity already logged from another file (the same run as .fit, .gpx " +
      "and .tcx: same type, starts within 5 minutes, times overlapping by 80 % or more) makes no second workout: " +
      "`duplicateOf` names the logged one, which a richer file updates and a poorer one leaves as it is. A file " +
      "stating no energy (GPX, or `<Calories>0`) gets an estimate from the MET table, the activity's speed and the " +
      "person's latest weight, with its range in `energyEstimate`; a device's own figure is never replaced by an " +
      "estimate. A workout starting more than a day ahead of the server's clock (a device's unset clock, say) is a 400.",
    query: WorkoutImportQuery, body: WorkoutImportRow, response: WorkoutImported, errors: [400, 409, 413, 415, 422, 429], idempotencyKey: true,
    upload: {
      limitBytes: ACTIVITY_FILE_LIMIT,
      mediaTypes: ["application/gpx+xml", "application/vnd.garmin.tcx+xml", "application/vnd.ant.fit", "application/xml", "text/xml", "application/octet-stream"],
    },
  }),
  startImport: define({
    id: "startImport", method: "POST", path: "/api/imports", service: "imports", tag: "Imports", scope: "imports:write",
    summary: "Import a weigh-in export, a food diary (CSV), an Apple Health export (export.zip or its export.xml), a Strava bulk export or a Garmin Connect export",
    description: "The file as the raw body, streamed (up to 2 GiB), or a small one as JSON `text`. A streamed upload has no " +
      "overall deadline but must not stall: 60 s without a byte cuts it with 408 and nothing is kept. Answers 202 with the " +
      "import at once; it is read in the background (GET /api/imports/{id} follows it). Weigh-ins: Withings, Fitbit, Renpho, " +
      "Libra and Happy Scale layouts are recognised by their header; weights in kg or lb (the header's unit, else `unit`), " +
      "times without a zone in `tz` (default UTC), a date without a time at local noon. Food diaries: MyFitnessPal's " +
      "nutrition export becomes one item per meal per day (it holds only the meal's totals), Cronometer's servings one item " +
      "per food with its amount, its daily summary one item per day; the diary's dates are its days. Apple Health's " +
      "`export.zip`, or the `export.xml` inside it, gives weigh-ins (kg, lb) with the body fat recorded at their instant, waist measurements and workouts (source " +
      "`phone_health`; from export.zip with the route its `workout-routes/*.gpx` holds), each time at its own offset; a document type declaring entities is refused. A zip archive is checked " +
      "before anything in it is inflated and refused (400, naming why) if it has more than 100 000 entries, a name that is " +
      "absolute or climbs out with `..`, a symbolic link, no `export.xml` (`apple_health_export/export.xml` or one folder " +
      "deep), `activities.csv` or Garmin's `DI_CONNECT/` but a zip inside it, entries declaring more than 4 GiB uncompressed together, or one compressing more than " +
      "200:1; an entry that inflates past the size its header declares fails the import (`failed`, nothing kept). Strava's " +
      "bulk export (a zip holding `activities.csv` and `activities/*.gpx|.tcx|.fit`, each may be `.gz`) gives one workout per " +
      "activity (source `activity_app`; one per leg of a multisport FIT file), its name, description and type from the CSV, " +
      "its figures from the recording, the CSV's where the recording has none. Garmin Connect's export (a zip holding " +
      "`DI_CONNECT/DI-Connect-Uploaded-Files/*.zip` and `DI_CONNECT/DI-Connect-Wellness/*_userBioMetrics.json`) gives one " +
      "workout per recording of its zips of uploaded files, Part1, Part2, … read in turn (source `watch_device`; one per leg of a multisport FIT " +
      "file) and one weigh-in per weight (grams, GMT); those are the only zips inside a zip read: once inflated, each " +
      "one's directory is checked with the same caps, counted with the export's and the parts' before it against 4 GiB, " +
      "and a zip inside it fails the import (for Part1 before any row is written; for a later part keeping the rows " +
      "of the parts before, which undo removes). Each reading, " +
      "diary entry or workout is stored once: the same file imported again creates nothing and counts its rows as skipped.",
    query: ImportQuery, body: ImportText, response: ImportSummary, status: 202, errors: [400, 413, 415],
    upload: {
      limitBytes: IMPORT_FILE_LIMIT, mediaTypes: ["text/csv", "text/plain", "application/xml", "text/xml", "application/zip", "application/octet-stream"], streamed: true,
    },
  }),
  listImports: define({
    id: "listImports", method: "GET", path: "/api/imports", service: "imports", tag: "Imports", scope: "imports:read",
    summary: "List imports", description: "The caller's imports, newest first (the latest 100).", response: ImportList, errors: [],
  }),
  getImport: define({
    id: "getImport", method: "GET", path: "/api/imports/:id", service: "imports", tag: "Imports", scope: "imports:read",
    summary: "Follow an import", description: "Its state, counts per kind, the first refused rows with their reasons, and progress.",
    params: IdParams, response: ImportSummary, errors: [400, 404],
  }),
  deleteImport: define({
    id: "deleteImport", method: "DELETE", path: "/api/imports/:id", service: "imports", tag: "Imports", scope: "imports:write",
    summary: "Cancel or undo an import",
    description: "A queued or reading import is cancelled; a finished (or cancelled) one is undone in the background " +
      "(`undoing`, then `undone`: follow it with GET): exactly the rows it created are removed, rows it skipped as already " +
      "stored stay. Answers the import as it now is; asking again while it is undoing changes nothing.",
    params: IdParams, response: ImportSummary, errors: [400, 404],
  }),
  getProfile: define({
    id: "getProfile", method: "GET", path: "/api/profile", service: "insights", tag: "Profile", scope: "profile:read",
    summary: "Get the profile",
    description: "Height, birth year, sex, activity level, display units, time zone and first day of the week; the defaults " +
      "(metric, UTC, monday, the rest null) until they are set. `units` tells clients how to show and accept numbers: the " +
      "API itself always speaks kilograms and centimetres.",
    response: Profile, errors: [],
  }),
  putProfile: define({
    id: "putProfile", method: "PUT", path: "/api/profile", service: "insights", tag: "Profile", scope: "profile:write",
    summary: "Set the profile", description: "Replaces the caller's profile; omitted fields take their defaults. Returns it.",
    body: ProfileInput, response: Profile, errors: [400, 413, 415],
  }),
  getInsights: define({
    id: "getInsights", method: "GET", path: "/api/insights", service: "insights", tag: "Insights", scope: "dashboard:read",
    summary: "Trend weight, weekly rate, goal date, expenditure and suggested targets",
    description: "Computed from the caller's weigh-ins and food days as of `date` (default: today in the profile's time zone; " +
      "readings are grouped by local day). The trend is a smoothed weight that sees through day-to-day water swings; the " +
      "weekly rate is its slope; the goal date is when the trend reaches the goal weight at that rate. Expenditure starts " +
      "from a formula on the profile and moves to what logged intake and the trend's change say (~7 700 kcal per kg) as " +
      "counted days accumulate, with a 90 % range. A day without food logged is unknown, never zero. Suggested targets " +
      "reach the goal by the target date within safe limits, or say why they cannot. A change reaches the insights within " +
      "moments (events).",
    query: InsightsQuery, response: Insights, errors: [400, 503, 504],
  }),
  adoptSuggestedTargets: define({
    id: "adoptSuggestedTargets", method: "POST", path: "/api/insights/adopt-targets", service: "insights", tag: "Insights",
    scope: "targets:write", summary: "Make the suggested daily kcal and protein the targets",
    description: "Computes the suggestion for today (as GET /api/insights does) and sets it as `dailyKcalTarget` and " +
      "`proteinTargetG`, keeping the goal weight and dates. 422 when there is no suggestion (no goal weight or no weigh-in).",
    response: Targets, errors: [422, 503, 504],
  }),
  askCoach: define({
    id: "askCoach", method: "POST", path: "/api/agent", service: "gateway", tag: "Coach", scope: "coach",
    summary: "Ask the coach",
    description: "Grounded in the caller's targets, the day's logged kcal and protein, and the latest weight and weekly " +
      "trend. The server keeps no conversation: send the whole history (1 to 20 messages) each turn. Query and body " +
      "`date` mean the same; both sent and different is a 400. When a data source does not answer in time the coach " +
      "still replies and says what it could not read. Without a language model configured, the built-in estimator answers.",
    query: AgentQuery, body: AgentRequest, response: AgentReply, errors: modelErrors,
  }),
  coachUsage: define({
    id: "coachUsage", method: "GET", path: "/api/coach/usage", service: "gateway", tag: "Coach", scope: "coach",
    summary: "The caller's coach usage today", description: "Calls and model tokens used since 00:00 UTC, and the daily limits.",
    response: CoachUsage, errors: [503, 504],
  }),
  getDashboard: define({
    id: "getDashboard", method: "GET", path: "/api/dashboard", service: "gateway", tag: "Dashboard",
    scope: "dashboard:read", summary: "Home-screen snapshot",
    description: "Weight summary, targets, latest measurements, shoulder-to-waist ratio, the day's nutrition and the " +
      "totals of the week's workouts (ISO week of `date`, UTC). " +
      "503 when a service does not answer in time (no partial snapshot: a blank tile would read as 'nothing logged').",
    query: DashboardQuery, response: Dashboard, errors: [400, 503],
  }),
  createApiKey: define({
    id: "createApiKey", method: "POST", path: "/api/keys", service: "gateway", tag: "API keys", scope: "keys",
    summary: "Create an API key",
    description: "Answers the key once (`key`); only its hash is stored. A key never gets a scope the calling credential " +
      "lacks (403): a session may grant any; a key needs the `keys` scope and holds only what it was granted. Omitted " +
      "`scopes` (every data scope) needs a caller with every data scope. `keys` and `account` are held only when named, " +
      "and a session may grant them only when signed in within the last 10 minutes (403: sign in again), as deleting the " +
      "account asks. A key never outlives the key that makes it: when the calling key expires, the new key's expiry is " +
      "cut to the caller's (an omitted or longer `expiresInDays` included; `expiresAt` in the answer says when). A key " +
      "made by a session may live as long as asked.",
    body: ApiKeyCreate, response: ApiKeyCreated, errors: [400, 413, 415],
  }),
  listApiKeys: define({
    id: "listApiKeys", method: "GET", path: "/api/keys", service: "gateway", tag: "API keys", scope: "keys",
    summary: "List the account's API keys",
    description: "Newest first; never the key nor its hash. `lastUsedAt` is recorded at most once a minute per key, so " +
      "it may lag a minute behind the last request.",
    response: ApiKeyList, errors: [],
  }),
  revokeApiKey: define({
    id: "revokeApiKey", method: "DELETE", path: "/api/keys/:id", service: "gateway", tag: "API keys", scope: "keys",
    summary: "Revoke an API key", description: "Deleted at once: its next request, on any gateway, is a 401.",
    params: IdParams, response: Ack, errors: [400, 404],
  }),
  listSessions: define({
    id: "listSessions", method: "GET", path: "/api/sessions", service: "gateway", tag: "Sessions", scope: "account",
    credential: "session", summary: "List the account's signed-in sessions",
    description: "Unexpired sessions, newest first; `current` marks the one making this request. Session cookie only: " +
      "an API key or agent token gets 403.",
    response: SessionList, errors: [],
  }),
  revokeSession: define({
    id: "revokeSession", method: "DELETE", path: "/api/sessions/:id", service: "gateway", tag: "Sessions", scope: "account",
    credential: "session", summary: "Revoke a session",
    description: "Signs that session out at once: its next request, on any gateway, is a 401. Session cookie only.",
    params: IdParams, response: Ack, errors: [400, 404],
  }),
  revokeOtherSessions: define({
    id: "revokeOtherSessions", method: "POST", path: "/api/sessions/revoke-others", service: "gateway", tag: "Sessions",
    scope: "account", credential: "session", summary: "Revoke every session but this one",
    description: "Signs out every other device at once. Session cookie only. Connected apps (agents) keep working unless " +
      "`connectedApps=revoke` is given: then every app's grant ends too, as DELETE /api/connected-apps/{clientId} ends one.",
    query: RevokeOthersQuery, response: RevokedCount, errors: [400],
  }),
  listConnectedApps: define({
    id: "listConnectedApps", method: "GET", path: "/api/connected-apps", service: "gateway", tag: "Connected apps", scope: "keys",
    summary: "List the agents the account let in",
    description: "One item per OAuth client holding a grant of the account (a consent, or a live refresh token), most recently " +
      "used first. `lastUsedAt` is its last token issue with a refresh token (authorization with `offline_access`, or a refresh), " +
      "read from the authorization server's own records; null when it holds no refresh token. Like key management: a session, " +
      "or a key granted `keys`; an agent's token never holds `keys` (403).",
    response: ConnectedAppList, errors: [],
  }),
  revokeConnectedApp: define({
    id: "revokeConnectedApp", method: "DELETE", path: "/api/connected-apps/:clientId", service: "gateway", tag: "Connected apps",
    scope: "keys", summary: "Revoke a connected app",
    description: "Ends the app's consent and every access and refresh token of the account for it at once: their next request, " +
      "on any gateway, is a 401, and a refresh is `invalid_grant`. To connect again the app must ask for consent again. 404 when " +
      "the account has no grant for that client (another account's, or an unknown id).",
    params: ClientIdParams, response: Ack, errors: [400, 404],
  }),
  ingestWeight: define({
    id: "ingestWeight", method: "POST", path: "/api/ingest/weight", service: "gateway", tag: "Weight", scope: "weight:write",
    credential: "ingest-token", summary: "Scale ingest: log a weigh-in for an account by email",
    description: "Only `Authorization: Bearer <INGEST_TOKEN>` (the token is refused with 403 on every other route). 404 " +
      "when no token is configured, or when the email is not an account. A repeat of (email, externalId), or without " +
      "externalId of (email, ts), is acknowledged and stored once (the first reading wins). Stored with source `scale`; " +
      "rate-limited per account like the API.",
    body: WeightIngest, response: Ack, errors: [400, 404, 413, 415, 503],
  }),
  exportAccount: define({
    id: "exportAccount", method: "GET", path: "/api/account/export", service: "gateway", tag: "Account", scope: "account",
    summary: "Download everything stored about the account",
    description: "One JSON document (`Content-Disposition: attachment`): the account, its API keys' metadata (never a " +
      "key), weigh-ins, measurements, targets, the profile, food items, daily totals, own foods and recipes, workouts and coach usage. It is streamed as " +
      "each service's part arrives: a service that fails midway cuts the connection, so an incomplete download never " +
      "parses as a whole document. Needs the `account` scope: a session holds it, a key only when granted by name.",
    response: AccountExport, errors: [503, 504], attachment: "fitness-export.json",
  }),
  deleteAccount: define({
    id: "deleteAccount", method: "DELETE", path: "/api/account", service: "gateway", tag: "Account", scope: "account",
    summary: "Delete the account and everything stored about it",
    description: "Confirmed by a session signed in within the last 10 minutes (an older one is a 403: sign in again) " +
      "or by an API key granted the `account` scope. The account, its sessions and keys are gone when this answers: " +
      "the next request with any of them is a 401. Every service then deletes the account's data on its own, within " +
      "moments (asynchronous, hence 202); nothing can be recovered.",
    response: Ack, status: 202, errors: [503],
  }),
} satisfies Record<string, Operation>;

export const operationList: readonly Operation[] = Object.values(operations);

export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, "{$1}");
