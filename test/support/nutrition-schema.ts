// The nutrition schema read directly, beside the API: GET /api/nutrition overlays days still pending with fresh
// sums, so on its own it would hide a wrong STORED total, an outbox row never sent or a day left pending.
import type pg from "pg";

/** Every read is scoped to the given accounts, so one test's leftovers never fail another's checks. */
export const readNutritionSchema = (sql: pg.Client) => {
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await sql.query<R>(text, values)).rows;
  const count = async (text: string, values: unknown[] = []) => (await query<{ n: number }>(text, values))[0]?.n ?? -1;

  return {
    /** Days whose stored total is not the sum of their items, a total without items, or items without a total. */
    mismatchedDays: (accountIds: string[]) =>
      query(
        `SELECT COALESCE(i.account_id, t.account_id)::text AS account_id, COALESCE(i.date, t.date) AS date,
                i.kcal AS items_kcal, t.kcal AS stored_kcal, i.n AS items, t.item_count AS stored_items
         FROM (SELECT account_id, date, SUM(kcal) AS kcal, SUM(protein_g) AS protein_g, COUNT(*)::int AS n
               FROM food_item WHERE account_id = ANY($1::uuid[]) GROUP BY account_id, date) i
         FULL JOIN (SELECT * FROM daily_total WHERE account_id = ANY($1::uuid[])) t ON t.account_id = i.account_id AND t.date = i.date
         WHERE i.account_id IS NULL OR t.account_id IS NULL OR t.item_count <> i.n
            OR t.kcal <> i.kcal OR t.protein_g <> i.protein_g
         ORDER BY 1, 2`,
        [accountIds],
      ),

    unsentOutboxRows: (accountIds: string[]) =>
      count("SELECT count(*)::int AS n FROM outbox_event WHERE sent_at IS NULL AND payload->'data'->>'accountId' = ANY($1)", [accountIds]),

    /** Outbox rows the relay tried to publish and failed to. */
    failedPublishes: (accountIds: string[]) =>
      count("SELECT count(*)::int AS n FROM outbox_event WHERE attempts > 0 AND payload->'data'->>'accountId' = ANY($1)", [accountIds]),

    pendingDays: (accountIds: string[]) => count("SELECT count(*)::int AS n FROM pending_day WHERE account_id = ANY($1::uuid[])", [accountIds]),

    isPending: async (accountId: string, date: string) =>
      (await count("SELECT count(*)::int AS n FROM pending_day WHERE account_id = $1 AND date = $2", [accountId, date])) > 0,

    storedTotals: (accountId: string) =>
      query<{ date: string; kcal: number; proteinG: number }>(
        `SELECT date, kcal, protein_g AS "proteinG" FROM daily_total WHERE account_id = $1 ORDER BY date DESC`,
        [accountId],
      ),

    storedDay: async (accountId: string, date: string) =>
      (
        await query<{ kcal: number; proteinG: number; itemCount: number; updatedAt: Date }>(
          `SELECT kcal, protein_g AS "proteinG", item_count AS "itemCount", updated_at AS "updatedAt"
           FROM daily_total WHERE account_id = $1 AND date = $2`,
          [accountId, date],
        )
      )[0],

    /** The event the service wrote to its outbox when the item was logged. */
    loggedEvent: async (itemId: string) =>
      (
        await query<{ payload: { id: string } }>(
          `SELECT payload FROM outbox_event WHERE subject = 'nutrition.item.logged' AND payload->'data'->>'itemId' = $1`,
          [itemId],
        )
      )[0]?.payload,

    /** Sessions the service holds open: zero once a killed process's connections are gone (its open transaction rolled back). */
    serviceSessions: () =>
      count("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nutrition'"),
  };
};
