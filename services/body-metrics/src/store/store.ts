import { bodyMetricsEvents, outboxRow, type Targets } from "@fit/contracts";
import { changeWithEvent, createOutboxSource, newestFirstPage, ping, type Database, type RangePage } from "@fit/db";
import { Prisma, PrismaClient } from "./generated/client.ts";
import type { TargetValues } from "../domain/targets.ts";
import { aggregatesOfDays, type WeightAggregates } from "../domain/weight-summary.ts";
import { accountData } from "./account-data.ts";
import { createHeldDays } from "./held-days.ts";
import { measurementView, readingView, targetsView } from "./views.ts";
import { latestMeasurementsQuery, targetsQuery, weightAggregatesQuery, type TogetherRow } from "./overview-queries.ts";

export interface NewReading {
  id: string;
  accountId: string;
  ts: number;
  weightKg: number;
  bodyFatPct: number | null;
  note: string | null;
  source: "manual" | "scale" | "import";
}

export interface NewMeasurement {
  id: string;
  accountId: string;
  site: string;
  valueCm: number;
  ts: number;
}

const orNull = (ms: number | null) => (ms === null ? null : new Date(ms));

// Columns under the names the views read, as the Prisma models name them.
const readingColumns = Prisma.sql`id, ts, weight_kg AS "weightKg", body_fat_pct AS "bodyFatPct", note, source, created_at AS "createdAt"`;
const measurementColumns = Prisma.sql`id, site, value_cm AS "valueCm", ts, created_at AS "createdAt"`;

/**
 * The reading and its event in one statement (docs/decisions/0028-raw-sql-on-hot-paths.md). `onConflict` lets a
 * scale's repeat write nothing, and then no event either.
 */
const insertReading = (reading: NewReading & { externalId?: string }, onConflict = Prisma.empty, alongside: Prisma.Sql[] = []) =>
  changeWithEvent(
    Prisma.sql`INSERT INTO weight_reading (id, account_id, ts, weight_kg, body_fat_pct, note, source, external_id)
      VALUES (${reading.id}::uuid, ${reading.accountId}::uuid, ${new Date(reading.ts)}, ${reading.weightKg}, ${reading.bodyFatPct},
              ${reading.note}, ${reading.source}, ${reading.externalId ?? null})
      ${onConflict} RETURNING id`,
    outboxRow(bodyMetricsEvents.weightLogged, {
      accountId: reading.accountId, readingId: reading.id, ts: reading.ts, weightKg: reading.weightKg,
    }),
    ...alongside,
  );

/**
 * An import's readings and their events in one statement, however many (each field one array parameter, unnested) (docs/performance.md, "Imports"): a row
 * per reading was the import's whole cost. Oldest first, so the roll-up's per-row trigger takes the day locks in
 * order, as weight_day_sum_again does; a reading the account already has (its externalId) is skipped with its event.
 * A reading without body fat takes the imported body fat of its instant (importBodyFat), if it came first.
 */
const insertReadings = (accountId: string, readings: (NewReading & { externalId: string })[]) => {
  const events = readings.map((r) => outboxRow(bodyMetricsEvents.weightLogged, { accountId, readingId: r.id, ts: r.ts, weightKg: r.weightKg }));
  return Prisma.sql`WITH input AS (
      SELECT * FROM unnest(${readings.map((r) => r.id)}::uuid[], ${readings.map((r) => new Date(r.ts).toISOString())}::timestamptz[],
        ${readings.map((r) => r.weightKg)}::float8[], ${readings.map((r) => r.bodyFatPct)}::float8[], ${readings.map((r) => r.note)}::text[],
        ${readings.map((r) => r.source)}::text[], ${readings.map((r) => r.externalId)}::text[],
        ${events.map((e) => e.id)}::uuid[], ${events.map((e) => JSON.stringify(e.payload))}::jsonb[], ${events.map((e) => JSON.stringify(e.headers))}::jsonb[])
        AS r(id, ts, weight_kg, body_fat_pct, note, source, external_id, event_id, payload, headers)
    ), inserted AS (
      INSERT INTO weight_reading (id, account_id, ts, weight_kg, body_fat_pct, body_fat_id, note, source, external_id)
      SELECT r.id, ${accountId}::uuid, r.ts, r.weight_kg, coalesce(r.body_fat_pct, f.body_fat_pct),
        CASE WHEN r.body_fat_pct IS NULL THEN f.id END, r.note, r.source, r.external_id
      FROM input r LEFT JOIN imported_body_fat f ON f.account_id = ${accountId}::uuid AND f.ts = r.ts
      ORDER BY r.ts
      ON CONFLICT DO NOTHING RETURNING id
    )
    INSERT INTO outbox_event (id, subject, payload, headers)
    SELECT event_id, ${bodyMetricsEvents.weightLogged.subject}, payload, headers FROM input WHERE id IN (SELECT id FROM inserted)`;
};

/**
 * An import's body fat: each stored once per externalId, and shown on the imported weigh-in of its instant that
 * has none, with the id undo takes it off by. Readings are imported once per instant (`weigh-in:<ms>`), so at most one matches.
 */
const insertBodyFat = (accountId: string, rows: { id: string; externalId: string; ts: number; bodyFatPct: number }[]) =>
  Prisma.sql`WITH inserted AS (
      INSERT INTO imported_body_fat (id, account_id, external_id, ts, body_fat_pct)
      SELECT id, ${accountId}::uuid, external_id, ts, body_fat_pct
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.externalId)}::text[],
        ${rows.map((r) => new Date(r.ts).toISOString())}::timestamptz[], ${rows.map((r) => r.bodyFatPct)}::float8[])
        AS r(id, external_id, ts, body_fat_pct)
      ON CONFLICT DO NOTHING RETURNING id, ts, body_fat_pct
    )
    UPDATE weight_reading w SET body_fat_pct = i.body_fat_pct, body_fat_id = i.id FROM inserted i
    WHERE w.account_id = ${accountId}::uuid AND w.source = 'import' AND w.ts = i.ts AND w.body_fat_pct IS NULL`;

const insertMeasurements = (accountId: string, rows: (NewMeasurement & { externalId: string })[]) =>
  Prisma.sql`INSERT INTO measurement (id, account_id, site, value_cm, ts, source, external_id)
    SELECT id, ${accountId}::uuid, site, value_cm, ts, 'import', external_id
    FROM unnest(${rows.map((m) => m.id)}::uuid[], ${rows.map((m) => m.site)}::text[], ${rows.map((m) => m.valueCm)}::float8[],
      ${rows.map((m) => new Date(m.ts).toISOString())}::timestamptz[], ${rows.map((m) => m.externalId)}::text[])
      AS r(id, site, value_cm, ts, external_id)
    ON CONFLICT DO NOTHING`;

/**
 * The id stored under each row's externalId, in the rows' order; a row's own when none is (a removal raced it),
 * which the import then records and undoes as a no-op.
 */
const storedIds = async (db: Database, table: "weight_reading" | "measurement" | "imported_body_fat", accountId: string, rows: { id: string; externalId: string }[]) => {
  const stored = await db.query<{ id: string; external_id: string }>(Prisma.sql`SELECT id, external_id FROM ${Prisma.raw(table)}
    WHERE account_id = ${accountId}::uuid AND external_id = ANY(${rows.map((r) => r.externalId)}::text[])`);
  const idOf = new Map(stored.map((row) => [row.external_id, row.id]));
  return rows.map((r) => idOf.get(r.externalId) ?? r.id);
};

/**
 * The only place that talks to the database. Every query is scoped by account. The requests a client makes
 * most (weigh-ins written and listed, the dashboard's summary) run on the driver (`db.query`), the rest through
 * the Prisma client: docs/decisions/0036-hot-paths-on-the-driver.md.
 */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  const heldDays = createHeldDays();

  /**
   * The weight summary's inputs up to `dayEnd` and other reads in one statement, so in one round trip: each of
   * `rows` as one JSON column holding its row (or null), each of `lists` as one holding its rows. When the
   * weight roll-up has fallen behind, rolls it forward for the next read.
   */
  const readTogether = async (accountId: string, dayEnd: number, rows: { targets?: Prisma.Sql }, lists: { latest?: Prisma.Sql }) => {
    const held = heldDays.get(accountId);
    const columns = [
      ...Object.entries({ weight: weightAggregatesQuery(accountId, dayEnd, held), ...rows })
        .map(([name, query]) => Prisma.sql`(SELECT row_to_json(part) FROM (${query}) part) AS ${Prisma.raw(name)}`),
      ...Object.entries(lists).map(([name, query]) => Prisma.sql`(SELECT coalesce(json_agg(part), '[]') FROM (${query}) part) AS ${Prisma.raw(name)}`),
    ];
    const [{ weight, targets, latest }] = (await db.query<TogetherRow>(Prisma.sql`SELECT ${Prisma.join(columns)}`)) as [TogetherRow];
    if (weight?.behind) await db.query(Prisma.sql`SELECT weight_day_roll_forward(${accountId}::uuid)`);
    const aggregates: WeightAggregates | null = weight && aggregatesOfDays(
      { ts: weight.newest_ts, weightKg: weight.weight_kg, bodyFatPct: weight.body_fat_pct, note: weight.note },
      { day: weight.week_start[0], sum: weight.week_start[1], count: weight.week_start[2] },
      heldDays.complete(accountId, held, { ...weight, days: weight.days.map(([ts, sum, count]) => ({ ts, sum, count })) }, dayEnd),
      dayEnd,
    );
    return { weight: aggregates, targets, latest };
  };

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    /** `alongside`: statements to commit with the reading or not at all (its Idempotency-Key's record). */
    async addReading(reading: NewReading, alongside: Prisma.Sql[] = []) {
      await db.query(insertReading(reading, Prisma.empty, alongside));
    },

    /**
     * Stores a scale's reading unless the account already has one under `externalId` (the unique key on
     * (account_id, external_id)); its event only with a new row. False for a repeat.
     */
    async ingestReading(reading: NewReading & { externalId: string }): Promise<boolean> {
      const [row] = await db.query<{ changed: number }>(insertReading(reading, Prisma.sql`ON CONFLICT DO NOTHING`));
      return (row?.changed ?? 0) > 0;
    },

    /**
     * An import's batch: each reading stored unless the account already has its `externalId`, with its event.
     * The id stored under each externalId, in order: the reading's own where it is (now or from before) the one stored.
     */
    async importReadings(accountId: string, readings: (NewReading & { externalId: string })[]): Promise<string[]> {
      await db.query(insertReadings(accountId, readings));
      return storedIds(db, "weight_reading", accountId, readings);
    },

    /** Deletes imported readings by id, each with its event; a reading logged another way is never touched. */
    removeImportedReadings: (accountId: string, ids: string[]): Promise<number> =>
      prisma.$transaction(async (tx) => {
        const gone = await tx.$queryRaw<{ id: string; ts: Date }[]>`DELETE FROM weight_reading
          WHERE account_id = ${accountId}::uuid AND source = 'import' AND id = ANY(${ids}::uuid[]) RETURNING id, ts`;
        if (gone.length) {
          await tx.outboxEvent.createMany({
            data: gone.map(({ id, ts }) => outboxRow(bodyMetricsEvents.weightDeleted, { accountId, readingId: id, ts: ts.getTime() })),
          });
        }
        return gone.length;
      }),

    async setReadingNote(accountId: string, id: string, note: string | null): Promise<boolean> {
      const { count } = await prisma.weightReading.updateMany({ where: { id, accountId }, data: { note } });
      return count > 0;
    },

    /** The reading and the event that tells its copies, or nothing when the account has no such reading. */
    deleteReading: (accountId: string, id: string): Promise<boolean> =>
      prisma.$transaction(async (tx) => {
        const [gone] = await tx.$queryRaw<{ ts: Date }[]>`DELETE FROM weight_reading WHERE id = ${id}::uuid AND account_id = ${accountId}::uuid RETURNING ts`;
        if (!gone) return false;
        await tx.outboxEvent.create({
          data: outboxRow(bodyMetricsEvents.weightDeleted, { accountId, readingId: id, ts: gone.ts.getTime() }),
        });
        return true;
      }),

    /** Oldest first, for a copy that repairs itself (insights). */
    readingsBetween: (accountId: string, from: number, to: number) =>
      prisma.weightReading.findMany({
        where: { accountId, ts: { gte: new Date(from), lt: new Date(to) } },
        orderBy: { ts: "asc" },
        select: { id: true, ts: true, weightKg: true },
      }),

    async listReadings(accountId: string, range: RangePage) {
      const rows = await db.query<Parameters<typeof readingView>[0]>(
        Prisma.sql`SELECT ${readingColumns} FROM weight_reading WHERE account_id = ${accountId}::uuid ${newestFirstPage("ts", range)}`,
      );
      return rows.map(readingView);
    },

    /** The inputs of the weight summary up to `dayEnd` (the end of a UTC day); null without readings before it. */
    async weightAggregates(accountId: string, dayEnd: number): Promise<WeightAggregates | null> {
      return (await readTogether(accountId, dayEnd, {}, {})).weight;
    },

    /**
     * What a question about the account asks of body-metrics, in one round trip to the database: the weight
     * summary's inputs, the targets and, for a dashboard, the newest measurement per site
     * (docs/decisions/0047-one-statement-per-bus-question.md).
     */
    async overview(accountId: string, dayEnd: number, { measurements = false } = {}) {
      const { weight, targets, latest } = await readTogether(
        accountId,
        dayEnd,
        { targets: targetsQuery(accountId) },
        measurements ? { latest: latestMeasurementsQuery(accountId) } : {},
      );
      return { weight, targets: targets ?? null, measurements: latest ?? [] };
    },

    /** `alongside`: statements to commit with the measurement or not at all (its Idempotency-Key's record). */
    async addMeasurement(m: NewMeasurement, alongside: Prisma.Sql[] = []) {
      const create = prisma.measurement.create({ data: { ...m, ts: new Date(m.ts) } });
      await (alongside.length ? prisma.$transaction([create, ...alongside.map((statement) => prisma.$executeRaw(statement))]) : create);
    },

    /**
     * An import's measurements: each stored unless the account already has its `externalId`; the id stored under
     * each, in order, as importReadings answers.
     */
    async importMeasurements(accountId: string, rows: (NewMeasurement & { externalId: string })[]): Promise<string[]> {
      await db.query(insertMeasurements(accountId, rows));
      return storedIds(db, "measurement", accountId, rows);
    },

    /** An import's body fat (insertBodyFat); the id stored under each externalId, in order, as importReadings answers. */
    async importBodyFat(accountId: string, rows: { id: string; externalId: string; ts: number; bodyFatPct: number }[]): Promise<string[]> {
      await db.query(insertBodyFat(accountId, rows));
      return storedIds(db, "imported_body_fat", accountId, rows);
    },

    /** Deletes imported body fat by id, and takes it off the weigh-ins that showed it; a weigh-in's own body fat stays. */
    async removeImportedBodyFat(accountId: string, ids: string[]): Promise<number> {
      const [row] = await db.query<{ removed: number }>(Prisma.sql`WITH gone AS (
          DELETE FROM imported_body_fat WHERE account_id = ${accountId}::uuid AND id = ANY(${ids}::uuid[]) RETURNING id
        ), cleared AS (
          UPDATE weight_reading SET body_fat_pct = NULL, body_fat_id = NULL
          WHERE account_id = ${accountId}::uuid AND body_fat_id IN (SELECT id FROM gone)
        )
        SELECT count(*)::int AS removed FROM gone`);
      return row?.removed ?? 0;
    },

    /** Deletes imported measurements by id; one entered by hand is never touched. */
    async removeImportedMeasurements(accountId: string, ids: string[]): Promise<number> {
      const { count } = await prisma.measurement.deleteMany({ where: { accountId, source: "import", id: { in: ids } } });
      return count;
    },

    async deleteMeasurement(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.measurement.deleteMany({ where: { id, accountId } });
      return count > 0;
    },

    async listMeasurements(accountId: string, site: string | undefined, range: RangePage) {
      const rows = await db.query<Parameters<typeof measurementView>[0]>(
        Prisma.sql`SELECT ${measurementColumns} FROM measurement
          WHERE account_id = ${accountId}::uuid ${site ? Prisma.sql`AND site = ${site}` : Prisma.empty} ${newestFirstPage("ts", range)}`,
      );
      return rows.map(measurementView);
    },

    async getTargets(accountId: string): Promise<Targets | null> {
      const [row] = await db.query<Targets>(targetsQuery(accountId));
      return row ?? null;
    },

    async replaceTargets(accountId: string, values: TargetValues) {
      const data = { ...values, targetDate: orNull(values.targetDate), startDate: orNull(values.startDate) };
      return prisma.$transaction(async (tx) => {
        const row = await tx.targets.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
        const targets = targetsView(row);
        await tx.outboxEvent.create({ data: outboxRow(bodyMetricsEvents.targetsUpdated, { accountId, targets }) });
        return targets;
      });
    },
  };
};

export type Store = ReturnType<typeof createStore>;
