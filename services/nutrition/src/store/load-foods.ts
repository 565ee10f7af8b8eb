// Puts the committed USDA extract into the food tables: after the migrations at every start (a no-op once the
// version is loaded) and into the PGlite templates at build time (docs/decisions/0063-food-database.md).
import type { Database } from "@fit/db";
import { descriptionTerms, headWords, rankBias } from "../domain/food-words.ts";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { readUsdaFiles } from "./usda-files.ts";

const SOURCE = "usda-sr-legacy";
/** Raised when what is derived from the files (terms, rank bias) changes, so every database reloads them. */
const DERIVATION = 1;

/** The food id of a USDA FoodData Central food. */
const usdaFoodId = (fdcId: string | number) => `usda:${fdcId}`;

/**
 * Loads the extract unless its version is already there; returns whether it loaded. All of it in one
 * transaction: a reader sees the old foods or the new, never half. Replicas starting together queue on a lock,
 * and every statement after it does nothing once another has loaded this version.
 */
export async function loadFoods(db: Database): Promise<boolean> {
  const files = await readUsdaFiles();
  const version = `${files.version}.${DERIVATION}`;
  const [loaded] = await db.query<{ version: string }>(Prisma.sql`SELECT version FROM food_data WHERE source = ${SOURCE}`);
  if (loaded?.version === version) return false;

  const rows = files.rows();
  const foods = rows.foods.map((food) => ({
    id: usdaFoodId(food.fdcId),
    description: food.description,
    category: food.category,
    kcal: food.kcal,
    protein_g: food.proteinG,
    fat_g: food.fatG,
    carbs_g: food.carbsG,
    fiber_g: food.fiberG,
    sugars_g: food.sugarsG,
    sodium_mg: food.sodiumMg,
    caveat: food.caveat,
  }));
  const seqs = new Map<string, number>();
  const portions = rows.portions.map((portion) => {
    const seq = (seqs.get(portion.fdcId) ?? 0) + 1;
    seqs.set(portion.fdcId, seq);
    return { food_id: usdaFoodId(portion.fdcId), seq, amount: portion.amount, unit: portion.unit, gram_weight: portion.gramWeight };
  });
  // Only foods that can be logged are searched for. Sorted by word, a word's rows share pages: search reads them by word.
  const terms = foods
    .filter((food) => food.kcal !== null)
    .flatMap((food) => {
      const bias = rankBias(food.description, food.category);
      const head = headWords(food.description).length;
      return descriptionTerms(food.description).map(({ word, inHead }) => ({ word, food_id: food.id, in_head: inHead, head_words: head, rank_bias: bias }));
    })
    .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));

  const stale = Prisma.sql`NOT EXISTS (SELECT 1 FROM food_data WHERE source = ${SOURCE} AND version = ${version})`;
  const ours = Prisma.sql`food_id LIKE 'usda:%'`;
  // The load takes ~3 s on an idle machine; under load it outlived Prisma's 5 s default and failed the service's start.
  const prisma = new PrismaClient({ adapter: db.adapter, transactionOptions: { timeout: 120_000 } });
  try {
    await prisma.$transaction([
      prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`fit-nutrition:${SOURCE}`}))::text`,
      prisma.$executeRaw`DELETE FROM food_term WHERE ${ours} AND ${stale}`,
      prisma.$executeRaw`DELETE FROM food_portion WHERE ${ours} AND ${stale}`,
      prisma.$executeRaw`DELETE FROM food WHERE id LIKE 'usda:%' AND ${stale}`,
      prisma.$executeRaw`DELETE FROM food_word w WHERE ${stale} AND NOT EXISTS (SELECT 1 FROM food_term t WHERE t.word = w.word)`,
      prisma.$executeRaw`INSERT INTO food (id, description, category, kcal, protein_g, fat_g, carbs_g, fiber_g, sugars_g, sodium_mg, caveat)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(foods)}::jsonb) AS x(id text, description text, category text,
          kcal float8, protein_g float8, fat_g float8, carbs_g float8, fiber_g float8, sugars_g float8, sodium_mg float8, caveat text)
        WHERE ${stale}`,
      prisma.$executeRaw`INSERT INTO food_portion (food_id, seq, amount, unit, gram_weight)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(portions)}::jsonb) AS x(food_id text, seq int, amount float8, unit text, gram_weight float8)
        WHERE ${stale}`,
      prisma.$executeRaw`INSERT INTO food_term (word, food_id, in_head, head_words, rank_bias)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(terms)}::jsonb) AS x(word text, food_id text, in_head boolean, head_words int, rank_bias float8)
        WHERE ${stale}`,
      prisma.$executeRaw`INSERT INTO food_word (word) SELECT DISTINCT word FROM food_term WHERE ${stale} ON CONFLICT DO NOTHING`,
      prisma.$executeRaw`INSERT INTO food_data (source, version, loaded_at) VALUES (${SOURCE}, ${version}, now())
        ON CONFLICT (source) DO UPDATE SET version = EXCLUDED.version, loaded_at = EXCLUDED.loaded_at`,
      // PGlite runs no autovacuum: without statistics the planner would guess at the new tables' sizes.
      prisma.$executeRaw`ANALYZE food, food_portion, food_term, food_word`,
    ]);
  } finally {
    await prisma.$disconnect();
  }
  return true;
}
