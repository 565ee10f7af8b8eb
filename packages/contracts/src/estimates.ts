import { z } from "zod";

/**
 * How sure an estimate is: a range around the point value, and where it came from (docs/decisions/0016-estimates-carry-range-and-provenance.md).
 */
export const EstimateRange = z.object({ low: z.number(), high: z.number() }).meta({ id: "EstimateRange" });

export const EstimateSource = z
  .string()
  .max(200)
  .meta({ description: "Provenance: `usda:<fdc_id>` for the food database (the built-in estimator), `model:<name>` for a language model." });

/** One food as the coach estimated it; nutrition logs it with its range and source. */
export const FoodEstimate = z.object({
  name: z.string().min(1).max(200),
  quantity: z.number().positive().nullable(),
  unit: z.string().max(30).nullable(),
  grams: z.number().nonnegative().nullable(),
  kcal: z.number().min(0).max(10_000),
  kcalRange: EstimateRange,
  proteinG: z.number().min(0).max(1000),
  proteinRange: EstimateRange,
  /** Grams for the amount; null when the source has no value (a language model gives none). */
  fatG: z.number().min(0).max(1000).nullable(),
  carbsG: z.number().min(0).max(2000).nullable(),
  fiberG: z.number().min(0).max(1000).nullable(),
  source: EstimateSource,
});
export type FoodEstimate = z.infer<typeof FoodEstimate>;

export const FoodEstimates = z.object({
  items: z.array(FoodEstimate).max(20),
  /** Parts of the text no food was recognised in. */
  unrecognized: z.array(z.string()),
});
