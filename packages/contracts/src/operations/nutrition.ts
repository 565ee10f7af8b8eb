// The HTTP operations of food items and days, the food database, own foods and recipes, food photos (nutrition).
import { Ack, IdParams } from "../common.ts";
import {
  DailyTotalList, FoodDescribe, FoodDescribed, FoodEstimated, FoodItemCopy, FoodEstimateRequest, FoodItem, FoodItemCreate, FoodItemList, FoodItemPatch, FoodItemsQuery, NutritionDay, NutritionDayMarkInput, NutritionDayParams,
} from "../nutrition.ts";
import {
  BarcodeParams, Food, FoodIdParams, FoodMatchList, FoodSearchQuery, RecentFoodList, RecentFoodsQuery,
} from "../foods.ts";
import {
  CustomFood, CustomFoodInput, CustomFoodList, CustomFoodParams, CustomFoodPatch, Recipe, RecipeInput, RecipeList, RecipeParams,
} from "../own-foods.ts";
import { FoodFromPhoto, FoodPhotoPreview, FoodPhotoQuery, PHOTO_FILE_LIMIT, PHOTO_MEDIA_TYPES } from "../photos.ts";
import { define, modelErrors, type Operation } from "./operation.ts";

export const nutritionOperations = {
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
} satisfies Record<string, Operation>;
