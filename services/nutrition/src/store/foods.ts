// Reads of the food database (docs/decisions/0063-food-database.md), on the driver: search is typed into as a
// person types, so every statement is one round trip.
import type { Database } from "@fit/db";
import type { BarcodeFoodRow } from "../domain/barcode-food.ts";
import type { FoodPer100g, PortionRow } from "../domain/food-portion.ts";
import { MAX_QUERY_WORDS, searchWords } from "../domain/food-words.ts";
import { Prisma } from "./generated/client.ts";

interface FoodRow extends FoodPer100g {
  id: string;
  name: string;
  category: string;
  sugarsG: number | null;
  sodiumMg: number | null;
}

const foodColumns = Prisma.sql`f.id, f.description AS name, f.category, f.kcal, f.protein_g AS "proteinG", f.fat_g AS "fatG",
  f.carbs_g AS "carbsG", f.fiber_g AS "fiberG", f.sugars_g AS "sugarsG", f.sodium_mg AS "sodiumMg"`;

const matchView = ({ id, name, category, ...per100g }: FoodRow) => ({ id, name, category, per100g });

/**
 * How many description words each typed word is compared with, by each distance: enough for a word's plural,
 * typos and longer forms. Written into the statement, not passed: a generic plan guessing at a parameter's limit
 * estimated thousands of candidate words, a cost over jit_above_cost, and PostgreSQL then JIT-compiled the
 * statement on every execution (~40 ms of a 3 ms search).
 */
const NEAR_BY_SIMILARITY = Prisma.raw("16");
const NEAR_BY_WORD_SIMILARITY = Prisma.raw("8");

/**
 * The caller's foods of the last 90 days (items whose source is a food: the database's, their own, a recipe, a
 * barcode's), each with its weight: every log counts, halved for every 14 days of its age, so often and lately
 * comes first.
 */
const loggedFoods = (accountId: string) => Prisma.sql`
  SELECT source AS id, max(date) AS last, count(*)::int AS times,
    sum(power(0.5, greatest(current_date - date::date, 0) / 14.0)) AS weight
  FROM food_item
  WHERE account_id = ${accountId}::uuid AND date >= to_char(current_date - 90, 'YYYY-MM-DD') AND source ~ '^(usda|custom|recipe|off):'
  GROUP BY source`;

/**
 * How much a food the caller logged is lifted in search, at most (a weight of 1: logged today or about as
 * often lately): above foods matching as well, not above a better match (a whole head scores 0.8 more).
 */
const MINE_BOOST = Prisma.raw("0.4");

/**
 * Each typed word finds the words of the descriptions it may mean: the nearest by trigram similarity (typos:
 * "brest" → "breast") and by word similarity (a word being typed: "banan" → "bananas"), both read off the GiST
 * index in distance order, then scored: itself, its plural or singular 1; a word it begins 0.9; else the trigram
 * similarity, kept from 0.3 only when the typed word is neither a word nor the start of one ("beer" means beer,
 * not beef). A food needs one of them for every typed word that found any. Its score sums each
 * typed word's best, plus 0.5 when a word of its head matched and 0.3 more when the typed words cover its whole
 * head, plus its rank bias (plainer foods higher), all read off the terms: only the foods shown are read. Each
 * join is a lateral index lookup (OFFSET 0 keeps it one): under a generic plan the planner cannot know that a
 * handful of words come out of the first step, and hashed all 55 000 terms, or scanned every food once per match.
 * Foods without an energy value cannot be logged, so they have no terms and are never offered.
 */
const SEARCH = (accountId: string, words: string, limit: number) => Prisma.sql`
  WITH mine AS (${loggedFoods(accountId)}),
  q AS (SELECT w, ord FROM unnest(string_to_array(${words}, ' ')) WITH ORDINALITY AS t(w, ord)),
  near AS (
    SELECT q.ord, q.w, fw.word FROM q CROSS JOIN LATERAL (
      (SELECT word FROM food_word ORDER BY word <-> q.w LIMIT ${NEAR_BY_SIMILARITY})
      UNION
      (SELECT word FROM food_word ORDER BY word <->> q.w LIMIT ${NEAR_BY_WORD_SIMILARITY})
    ) fw
  ),
  m AS (
    SELECT ord, word, s FROM (
      SELECT ord, word, s, max(s) OVER (PARTITION BY ord) AS best FROM (
        SELECT ord, word,
          CASE WHEN word IN (w, w || 's', w || 'es') OR w IN (word || 's', word || 'es') THEN 1.0
               WHEN length(w) >= 3 AND starts_with(word, w) THEN 0.9
               ELSE similarity(word, w) END AS s
        FROM near
      ) scored_words
    ) candidates
    WHERE s >= 0.9 OR (best < 0.9 AND s >= 0.3)
  ),
  hits AS (
    SELECT t.food_id, m.ord, max(m.s) AS s, bool_or(t.in_head) AS head, min(t.head_words) AS head_words, min(t.rank_bias) AS bias
    FROM m CROSS JOIN LATERAL (SELECT food_id, in_head, head_words, rank_bias FROM food_term WHERE word = m.word OFFSET 0) t
    GROUP BY t.food_id, m.ord
  ),
  matched AS (
    SELECT food_id,
      sum(s) + CASE WHEN bool_or(head) THEN 0.5 ELSE 0 END
        + CASE WHEN count(*) FILTER (WHERE head) = min(head_words) THEN 0.3 ELSE 0 END + min(bias) AS score
    FROM hits GROUP BY food_id HAVING count(*) = (SELECT count(DISTINCT ord) FROM m)
  ),
  ranked AS (
    SELECT food_id, score + COALESCE(${MINE_BOOST} * least(mine.weight, 1), 0) AS score
    FROM matched LEFT JOIN mine ON mine.id = matched.food_id
    ORDER BY score DESC, food_id
    LIMIT ${limit}
  )
  SELECT ${foodColumns} FROM ranked b CROSS JOIN LATERAL (SELECT * FROM food WHERE id = b.food_id OFFSET 0) f
  ORDER BY b.score DESC, f.id`;

export const foodQueries = (db: Database) => ({
  /** Foods matching `text`, best first; the ones `accountId` logged lately lifted (MINE_BOOST). */
  async search(accountId: string, text: string, limit: number) {
    const words = searchWords(text).slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    return (await db.query<FoodRow>(SEARCH(accountId, words.join(" "), limit))).map(matchView);
  },

  /** The ids of the foods `accountId` logged in the last 90 days, by their weight (see loggedFoods). */
  recent: (accountId: string, limit: number) =>
    db.query<{ id: string; lastLoggedOn: string; timesLogged: number }>(Prisma.sql`
      SELECT mine.id, mine.last AS "lastLoggedOn", mine.times AS "timesLogged"
      FROM (${loggedFoods(accountId)}) mine
      ORDER BY mine.weight DESC, mine.last DESC, mine.id LIMIT ${limit}`),

  /** The food with its portions, or null when there is no such food. */
  async get(id: string) {
    const rows = await db.query<FoodRow & { caveat: string | null; portions: PortionRow[] }>(Prisma.sql`
      SELECT ${foodColumns}, f.caveat, COALESCE((
        SELECT json_agg(json_build_object('id', p.seq, 'amount', p.amount, 'unit', p.unit, 'grams', p.gram_weight) ORDER BY p.seq)
        FROM food_portion p WHERE p.food_id = f.id), '[]'::json) AS portions
      FROM food f WHERE f.id = ${id}`);
    const [row] = rows;
    if (!row) return null;
    const { caveat, portions, ...food } = row;
    return { ...matchView(food), portions, caveat };
  },

  /** The cached product of this barcode with when it was fetched, or null when it never was. */
  async barcodeFood(gtin: string) {
    const [row] = await db.query<BarcodeFoodRow & { fetchedAt: Date }>(Prisma.sql`
      SELECT gtin, name, kcal, protein_g AS "proteinG", fat_g AS "fatG", carbs_g AS "carbsG", fiber_g AS "fiberG",
        sugars_g AS "sugarsG", sodium_mg AS "sodiumMg", serving_size AS "servingSize", serving_g AS "servingG", fetched_at AS "fetchedAt"
      FROM barcode_food WHERE gtin = ${gtin}`);
    return row ?? null;
  },

  /** Keeps the product as fetched now, in place of what was cached. */
  async saveBarcodeFood(r: BarcodeFoodRow) {
    await db.query(Prisma.sql`
      INSERT INTO barcode_food (gtin, name, kcal, protein_g, fat_g, carbs_g, fiber_g, sugars_g, sodium_mg, serving_size, serving_g, fetched_at)
      VALUES (${r.gtin}, ${r.name}, ${r.kcal}, ${r.proteinG}, ${r.fatG}, ${r.carbsG}, ${r.fiberG}, ${r.sugarsG}, ${r.sodiumMg}, ${r.servingSize}, ${r.servingG}, now())
      ON CONFLICT (gtin) DO UPDATE SET name = excluded.name, kcal = excluded.kcal, protein_g = excluded.protein_g, fat_g = excluded.fat_g,
        carbs_g = excluded.carbs_g, fiber_g = excluded.fiber_g, sugars_g = excluded.sugars_g, sodium_mg = excluded.sodium_mg,
        serving_size = excluded.serving_size, serving_g = excluded.serving_g, fetched_at = excluded.fetched_at`);
  },
});
