// A product of Open Food Facts as a food: its answer checked, its values per 100 g read into the database's units,
// and the row cached for it shown in the same shape as a USDA food (docs/decisions/0066-barcode-lookup.md).
import { z } from "zod";

/** A value as the API writes it: mostly a number, sometimes a numeric string; anything else is unknown. */
const Amount = z.union([z.number(), z.string()]).nullish();

/** The documented answer of `GET /api/v2/product/{code}.json`: `status` 1 with the product, 0 for none. */
export const ProductReply = z.object({
  status: z.union([z.literal(0), z.literal(1)]),
  product: z
    .object({
      product_name: z.string().nullish(),
      brands: z.string().nullish(),
      nutriments: z.record(z.string(), z.unknown()).nullish(),
      serving_size: z.string().nullish(),
      serving_quantity: Amount,
    })
    .optional(),
});
export type Product = NonNullable<z.output<typeof ProductReply>["product"]>;

/** The fields asked for: the answer stays a few kB, however much else the product page holds. */
export const PRODUCT_FIELDS = "product_name,brands,nutriments,serving_size,serving_quantity";

/** What the cache holds for a product, in the food database's units. */
export interface BarcodeFoodRow {
  gtin: string;
  name: string;
  kcal: number | null;
  proteinG: number | null;
  fatG: number | null;
  carbsG: number | null;
  fiberG: number | null;
  sugarsG: number | null;
  sodiumMg: number | null;
  servingSize: string | null;
  servingG: number | null;
}

const KJ_PER_KCAL = 4.184;
/** Salt is sodium chloride: 1 g of salt holds 400 mg of sodium. */
const SODIUM_MG_PER_SALT_G = 400;

/** The value as a number, or null when it is none. */
const numberOf = (value: unknown): number | null => {
  const parsed = Amount.safeParse(value);
  if (!parsed.success || parsed.data === null || parsed.data === undefined || parsed.data === "") return null;
  const n = Number(parsed.data);
  return Number.isFinite(n) ? n : null;
};

/** `value × factor` to three decimals within [0, max], or null: a value past what 100 g can hold is a contributor's typo, not a fact. */
const within = (value: unknown, max: number, factor = 1): number | null => {
  const n = numberOf(value);
  return n !== null && n >= 0 && n * factor <= max ? Math.round(n * factor * 1000) / 1000 : null;
};

/** A name for a product that has none: what was scanned. */
const nameOf = (gtin: string, product: Product) => {
  const name = product.product_name?.trim() || `Product ${gtin}`;
  const brand = product.brands?.split(",")[0]?.trim();
  return (brand && !name.toLowerCase().includes(brand.toLowerCase()) ? `${name} (${brand})` : name).slice(0, 200);
};

/**
 * The product's row: energy in kcal (from kJ when only that is given), grams per 100 g, sodium in mg (the API
 * gives grams, or only salt). A value outside what 100 g can hold is unknown (null), as a missing one is.
 */
export const barcodeFoodRow = (gtin: string, product: Product): BarcodeFoodRow => {
  const n = product.nutriments ?? {};
  const grams = (key: string) => within(n[`${key}_100g`], 100);
  const kj = n["energy-kj_100g"] ?? n["energy_100g"];
  const serving = within(product.serving_quantity, 5000);
  const servingG = serving === 0 ? null : serving;
  return {
    gtin,
    name: nameOf(gtin, product),
    kcal: within(n["energy-kcal_100g"], 950) ?? within(kj, 950, 1 / KJ_PER_KCAL),
    proteinG: grams("proteins"),
    fatG: grams("fat"),
    carbsG: grams("carbohydrates"),
    fiberG: grams("fiber"),
    sugarsG: grams("sugars"),
    sodiumMg: within(n["sodium_100g"], 100_000, 1000) ?? within(n["salt_100g"], 100_000, SODIUM_MG_PER_SALT_G),
    servingSize: servingG === null ? null : (product.serving_size?.trim().slice(0, 100) || `${servingG} g`),
    servingG,
  };
};

/** The cached product as a food of the database: its serving (when the package gives one) is its one portion. */
export const barcodeFoodView = ({ gtin, name, servingSize, servingG, ...per100g }: BarcodeFoodRow) => ({
  id: `off:${gtin}`,
  name,
  category: "Packaged foods (Open Food Facts)",
  per100g,
  portions: servingG === null ? [] : [{ id: 1, amount: 1, unit: `serving (${servingSize})`, grams: servingG }],
  caveat: "Open Food Facts: values as contributors copied them from the package (ODbL); check them against the label.",
});
