// Where a food comes from by its id, the one place that resolves any: the USDA database in the service's tables, the
// account's own foods and recipes, or a product by its barcode, from the cache or, when not there or stale, from Open
// Food Facts (docs/decisions/0065-own-foods-and-recipes.md, docs/decisions/0066-barcode-lookup.md).
import { AppError, canonicalGtin, hasGtinCheckDigit } from "@fit/contracts";
import type { NutritionConfig } from "../config.ts";
import { barcodeFoodRow, barcodeFoodView } from "../domain/barcode-food.ts";
import type { Store } from "../store/store.ts";
import { openFoodFacts } from "./open-food-facts.ts";

const DAY_MS = 86_400_000;
/** Logged foods read beyond the limit, so foods deleted since still leave a full list. */
const RECENT_SLACK = 10;

export const createFoodFinder = (store: Store, config: Pick<NutritionConfig, "FOOD_BARCODE_URL" | "FOOD_BARCODE_TIMEOUT_MS" | "FOOD_BARCODE_CACHE_DAYS">) => {
  const lookup = config.FOOD_BARCODE_URL ? openFoodFacts({ baseUrl: config.FOOD_BARCODE_URL, timeoutMs: config.FOOD_BARCODE_TIMEOUT_MS }) : null;
  const maxAgeMs = config.FOOD_BARCODE_CACHE_DAYS * DAY_MS;

  /**
   * The product of a valid barcode as a food. Off (503) unless the operator set FOOD_BARCODE_URL. A fresh cached
   * product is served without asking; a stale one is fetched again, and served as it was when the API fails.
   */
  const byBarcode = async (code: string) => {
    if (!lookup) {
      throw new AppError("unavailable", "barcode lookup is not enabled on this server", "its operator enables it by setting FOOD_BARCODE_URL");
    }
    const gtin = canonicalGtin(code);
    const cached = await store.foods.barcodeFood(gtin);
    if (cached && Date.now() - cached.fetchedAt.getTime() < maxAgeMs) return barcodeFoodView(cached);
    let product;
    try {
      product = await lookup(gtin);
    } catch (caught) {
      if (cached) return barcodeFoodView(cached);
      throw caught;
    }
    if (!product) throw new AppError("not_found", `no product with barcode ${gtin} in Open Food Facts`);
    const row = barcodeFoodRow(gtin, product);
    await store.foods.saveBarcodeFood(row);
    return barcodeFoodView(row);
  };

  /**
   * The food of this id, for this account when it is one of its own; null when there is none (an `off:` id whose
   * check digit is wrong is none).
   */
  const byId = async (accountId: string, id: string) => {
    if (id.startsWith("usda:")) return store.foods.get(id);
    if (!id.startsWith("off:")) return store.ownFoods.asFood(accountId, id);
    const gtin = id.slice("off:".length);
    if (!hasGtinCheckDigit(gtin)) return null;
    try {
      return await byBarcode(gtin);
    } catch (caught) {
      if (caught instanceof AppError && caught.code === "not_found") return null;
      throw caught;
    }
  };

  /**
   * The foods the account logged lately, heaviest first, as search lists them. A food since deleted is left out; a
   * barcode's product is read from the cache only, so listing never waits on Open Food Facts.
   */
  const recent = async (accountId: string, limit: number) => {
    const logged = await store.foods.recent(accountId, limit + RECENT_SLACK);
    const resolved = await Promise.all(
      logged.map(async ({ id, ...times }) => {
        const food = id.startsWith("off:") ? await cachedBarcodeFood(id) : await byId(accountId, id);
        return food && { id: food.id, name: food.name, category: food.category, per100g: food.per100g, ...times };
      }),
    );
    return resolved.filter((food) => food !== null).slice(0, limit);
  };

  const cachedBarcodeFood = async (id: string) => {
    const cached = await store.foods.barcodeFood(id.slice("off:".length));
    return cached && barcodeFoodView(cached);
  };

  return { byBarcode, byId, recent };
};

export type FoodFinder = ReturnType<typeof createFoodFinder>;
