// Puts the committed USDA extract into the food tables: after the migrations at every start (a no-op once the
// version is loaded) and into the PGlite templates at build time (docs/decisions/0063-food-database.md).
import { fileURLToPath } from "node:url";
import { forgetQueryArguments, onOwnThread, type Database } from "@fit/db";
import { descriptionTerms, headWords, rankBias } from "../domain/food-words.ts";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { readUsdaFiles, type UsdaRows } from "./usda-files.ts";

const SOURCE = "usda-sr-legacy";
/** Raised when what is derived from the files (terms, rank bias) changes, so every database reloads them. */
const DERIVATION = 1;

/**
 * Foods per statement, with their portions and search terms: each statement's JSON stays under ~100 KB, so it dies in
 * the young generation. The whole extract as three texts (8 MB) went to V8's large-object space and, with Prisma's
 * copies, stayed in nutrition's memory after the load: 170 MB of RSS after a first start (128 MB now) against 90 MB
 * after a start on loaded data (docs/performance.md, "Where a service's RSS goes").
 */
const FOODS_PER_STATEMENT = 150;

/** The food id of a USDA FoodData Central food. */
const usdaFoodId = (fdcId: string | number) => `usda:${fdcId}`;

type UsdaFood = UsdaRows["foods"][number];

const foodRow = (food: UsdaFood) => ({
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
});

/** A food's portions, numbered in the file's order. */
const portionRows = (fdcId: string, portions: UsdaRows["portions"]) =>
  portions.map((portion, i) => ({ food_id: usdaFoodId(fdcId), seq: i + 1, amount: portion.amount, unit: portion.unit, gram_weight: portion.gramWeight }));

/** Only foods that can be logged are searched for. */
const termRows = (food: UsdaFood) => {
  if (food.kcal === null) return [];
  const bias = rankBias(food.description, food.category);
  const head = headWords(food.description).length;
  return descriptionTerms(food.description).map(({ word, inHead }) => ({ word, food_id: usdaFoodId(food.fdcId), in_head: inHead, head_words: head, rank_bias: bias }));
};

/** The extract's files, and whether the database holds their version already. */
const extract = async (db: Database) => {
  const files = await readUsdaFiles();
  const version = `${files.version}.${DERIVATION}`;
  const [loaded] = await db.query<{ version: string }>(Prisma.sql`SELECT version FROM food_data WHERE source = ${SOURCE}`);
  return { files, version, isLoaded: loaded?.version === version };
};

/**
 * Loads the extract unless its version is already there; returns whether it loaded. On PostgreSQL the load runs on
 * a thread of its own: in the process, the parsed extract, its JSON and what Prisma kept of them left nutrition at
 * 113 MB for the rest of its life, against 92 MB now (docs/performance.md, "Migrations on a thread").
 */
export async function loadFoods(db: Database): Promise<boolean> {
  if ((await extract(db)).isLoaded) return false;
  return onOwnThread(db, fileURLToPath(new URL("./load-foods-worker.ts", import.meta.url)), loadFoodsHere);
}

/**
 * `loadFoods` in this thread. All of it in one transaction: a reader sees the old foods or the new, never half.
 * Replicas starting together queue on a lock, and no write to the food tables after it does anything once another
 * has loaded this version.
 */
export async function loadFoodsHere(db: Database): Promise<boolean> {
  const { files, version, isLoaded } = await extract(db);
  if (isLoaded) return false;

  const rows = files.rows();
  const portionsOf = new Map<string, UsdaRows["portions"]>();
  for (const portion of rows.portions) {
    const portions = portionsOf.get(portion.fdcId);
    if (portions) portions.push(portion);
    else portionsOf.set(portion.fdcId, [portion]);
  }
  const stale = Prisma.sql`NOT EXISTS (SELECT 1 FROM food_data WHERE source = ${SOURCE} AND version = ${version})`;
  const ours = Prisma.sql`food_id LIKE 'usda:%'`;
  // The load takes ~3 s on an idle machine; under load it outlived Prisma's 5 s default and failed the service's start.
  const prisma = new PrismaClient({ adapter: db.adapter, transactionOptions: { timeout: 120_000 } });
  try {
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`fit-nutrition:${SOURCE}`}))::text`;
      await tx.$executeRaw`DELETE FROM food_term WHERE ${ours} AND ${stale}`;
      await tx.$executeRaw`DELETE FROM food_portion WHERE ${ours} AND ${stale}`;
      await tx.$executeRaw`DELETE FROM food WHERE id LIKE 'usda:%' AND ${stale}`;
      await tx.$executeRaw`DELETE FROM food_word w WHERE ${stale} AND NOT EXISTS (SELECT 1 FROM food_term t WHERE t.word = w.word)`;
      await tx.$executeRaw`CREATE TEMP TABLE loaded_term (word text, food_id text, in_head boolean, head_words int, rank_bias float8) ON COMMIT DROP`;
      for (let from = 0; from < rows.foods.length; from += FOODS_PER_STATEMENT) {
        const foods = rows.foods.slice(from, from + FOODS_PER_STATEMENT);
        await tx.$executeRaw`INSERT INTO food (id, description, category, kcal, protein_g, fat_g, carbs_g, fiber_g, sugars_g, sodium_mg, caveat)
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(foods.map(foodRow))}::jsonb) AS x(id text, description text, category text,
            kcal float8, protein_g float8, fat_g float8, carbs_g float8, fiber_g float8, sugars_g float8, sodium_mg float8, caveat text)
          WHERE ${stale}`;
        await tx.$executeRaw`INSERT INTO food_portion (food_id, seq, amount, unit, gram_weight)
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(foods.flatMap((food) => portionRows(food.fdcId, portionsOf.get(food.fdcId) ?? [])))}::jsonb)
            AS x(food_id text, seq int, amount float8, unit text, gram_weight float8)
          WHERE ${stale}`;
        await tx.$executeRaw`INSERT INTO loaded_term SELECT * FROM jsonb_to_recordset(${JSON.stringify(foods.flatMap(termRows))}::jsonb)
          AS x(word text, food_id text, in_head boolean, head_words int, rank_bias float8)`;
        forgetQueryArguments();
      }
      // Sorted by word, a word's rows share pages: search reads them by word.
      await tx.$executeRaw`INSERT INTO food_term (word, food_id, in_head, head_words, rank_bias)
        SELECT * FROM loaded_term WHERE ${stale} ORDER BY word COLLATE "C"`;
      await tx.$executeRaw`INSERT INTO food_word (word) SELECT DISTINCT word FROM food_term WHERE ${stale} ON CONFLICT DO NOTHING`;
      await tx.$executeRaw`INSERT INTO food_data (source, version, loaded_at) VALUES (${SOURCE}, ${version}, now())
        ON CONFLICT (source) DO UPDATE SET version = EXCLUDED.version, loaded_at = EXCLUDED.loaded_at`;
      // PGlite runs no autovacuum: without statistics the planner would guess at the new tables' sizes.
      await tx.$executeRaw`ANALYZE food, food_portion, food_term, food_word`;
    });
  } finally {
    await prisma.$disconnect();
  }
  return true;
}
