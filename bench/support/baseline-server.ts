// The baseline of bench/targets.ts: the same weight and food operations as a bare Fastify app on `pg`, without
// the platform (no gateway hop, credential lookup, assertion, ORM, outbox row or roll-up). Started by baseline.ts.
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import pg from "pg";

const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const schema = env("BASELINE_SCHEMA");
const table = `${schema}.weight_reading`;
const accountId = env("BASELINE_ACCOUNT_ID");
// The services' pool size (DATABASE_POOL_SIZE default).
const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: 10 });

type Row = { id: string; ts: Date; weight_kg: number; body_fat_pct: number | null; note: string | null; source: string; created_at: Date };
const view = (r: Row) => ({
  id: r.id, ts: r.ts.getTime(), weightKg: r.weight_kg, bodyFatPct: r.body_fat_pct, note: r.note, source: r.source,
  createdAt: r.created_at.getTime(),
});

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.get("/readyz", async () => (await pool.query("SELECT 1"), { status: "ok" }));

const WeightCreate = {
  type: "object",
  required: ["weightKg"],
  properties: { weightKg: { type: "number", minimum: 1, maximum: 700 } },
} as const;

app.post<{ Body: { weightKg: number } }>("/api/weight", { schema: { body: WeightCreate } }, async (request) => {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO ${table} (id, account_id, ts, weight_kg, body_fat_pct, note, source) VALUES ($1, $2, $3, $4, NULL, NULL, 'manual')`,
    [id, accountId, new Date(), request.body.weightKg],
  );
  return { ok: true, id };
});

const FoodCreate = {
  type: "object",
  required: ["date", "name", "kcal", "proteinG"],
  properties: {
    date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
    name: { type: "string", minLength: 1, maxLength: 200 },
    kcal: { type: "number", minimum: 0, maximum: 10_000 },
    proteinG: { type: "number", minimum: 0, maximum: 1000 },
    meal: { type: "string", enum: ["breakfast", "lunch", "dinner", "snack"] },
  },
} as const;

type Food = { date: string; name: string; kcal: number; proteinG: number; meal?: string };
app.post<{ Body: Food }>("/api/nutrition/items", { schema: { body: FoodCreate } }, async (request) => {
  const { date, name, kcal, proteinG, meal = null } = request.body;
  const { rows } = await pool.query(
    `INSERT INTO ${schema}.food_item (id, account_id, date, name, kcal, protein_g, meal, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id, date, name, kcal, protein_g, meal, created_at`,
    [randomUUID(), accountId, date, name, kcal, proteinG, meal],
  );
  return rows[0];
});

app.get("/api/weight", async () => {
  // 51 like the service: one beyond the page of 50 tells whether another page follows.
  const { rows } = await pool.query<Row>(
    `SELECT id, ts, weight_kg, body_fat_pct, note, source, created_at FROM ${table}
     WHERE account_id = $1 ORDER BY ts DESC, id DESC LIMIT 51`,
    [accountId],
  );
  const items = rows.slice(0, 50).map(view);
  const last = items.at(-1);
  const nextCursor = rows.length > 50 && last ? Buffer.from(JSON.stringify({ at: last.ts, id: last.id })).toString("base64url") : null;
  return { items, nextCursor };
});

await app.listen({ host: "127.0.0.1", port: Number(env("PORT")) });
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void app.close().then(() => pool.end()).finally(() => process.exit(0)));
}
