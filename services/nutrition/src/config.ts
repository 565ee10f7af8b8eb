import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const nutritionEnv = baseEnv(3102).extend({
  /**
   * How often totals are checked against their items and repaired. JetStream acknowledges before fsync by
   * default, so an acknowledged event can be lost on power loss (docs/security.md#21-jetstream-fsync-and-reconciliation); this pass bounds the damage.
   */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /**
   * How many days back a reconciliation pass compares totals with their items. A lost event is repaired on
   * any date (its day stays marked pending); this bounds the search for any other drift.
   */
  RECONCILE_WINDOW_DAYS: z.coerce.number().int().min(1).max(3660).default(14),
  /** How long a food description may wait for the coach: above its model timeout plus one retry. */
  COACH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(25_000),
  /**
   * An Open Food Facts-compatible API (https://world.openfoodfacts.org), for foods looked up by barcode. Unset: no
   * lookup leaves the service, and the barcode route answers 503 (docs/decisions/0066-barcode-lookup.md).
   */
  FOOD_BARCODE_URL: z.url().optional(),
  /** How long one lookup may take, connecting and reading included. */
  FOOD_BARCODE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** How long a product fetched is served from the cache before it is fetched again (products change their recipe). */
  FOOD_BARCODE_CACHE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Label photos read at once, each on an OCR thread (~100 MB apiece while kept), and how many more may wait (docs/decisions/0079-photographed-logs.md). */
  PHOTO_THREADS: z.coerce.number().int().min(1).max(8).default(1),
  PHOTO_QUEUE: z.coerce.number().int().min(0).max(50).default(4),
});
export type NutritionConfig = z.output<typeof nutritionEnv>;

export const loadNutritionConfig = (env?: NodeJS.ProcessEnv) => loadConfig(nutritionEnv, env);
