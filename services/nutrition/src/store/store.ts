import { nutritionEvents, outboxRow, type DayMark } from "@fit/contracts";
import { changeWithEvent, createOutboxSource, ping, runExclusively, type Database } from "@fit/db";
import type { DayTotal, NutritionTargets } from "../domain/daily-total.ts";
import { counts, markOf, nutritionDay } from "../domain/day-mark.ts";
import { foodItemView } from "./food-item-view.ts";
import { foodQueries } from "./foods.ts";
import { accountData } from "./account-data.ts";
import { ownFoodStore } from "./own-foods.ts";
import { Prisma, PrismaClient, type FoodItem } from "./generated/client.ts";

export type NewFoodItem = Omit<Prisma.FoodItemUncheckedCreateInput, "createdAt" | "updatedAt"> & { id: string };
export type FoodItemChanges = Omit<Prisma.FoodItemUncheckedUpdateInput, "id" | "accountId" | "createdAt" | "updatedAt">;

type Tx = Prisma.TransactionClient;

/** Numbers corrected by hand are neither the coach's estimate nor the food database's. */
const handTyped = { kcalLow: null, kcalHigh: null, proteinLow: null, proteinHigh: null, estimateSource: null, source: null };

/**
 * Marks the (account_id, date) pairs `days` selects as changed by the write whose event is `eventId`: reads
 * recompute these days until the projection has applied that event.
 */
const markPending = (days: Prisma.Sql, eventId: string) => Prisma.sql`
  INSERT INTO pending_day (account_id, date, event_id) SELECT DISTINCT account_id, date, ${eventId}::uuid FROM (${days}) AS days
  ON CONFLICT (account_id, date) DO UPDATE SET event_id = EXCLUDED.event_id, created_at = now()`;

/** Records which days a write changed, in the write's own transaction, together with the event. */
const markChanged = async (tx: Tx, accountId: string, dates: string[], event: ReturnType<typeof outboxRow>) => {
  await tx.$executeRaw(markPending(Prisma.sql`SELECT ${accountId}::uuid AS account_id, unnest(${dates}::text[]) AS date`, event.id));
  await tx.outboxEvent.create({ data: event });
};

const newRow = (item: NewFoodItem, now: Date): FoodItem => ({
  id: item.id, accountId: item.accountId, date: item.date, name: item.name, kcal: item.kcal, proteinG: item.proteinG,
  carbsG: item.carbsG ?? null, fatG: item.fatG ?? null, fiberG: item.fiberG ?? null, quantity: item.quantity ?? null, unit: item.unit ?? null,
  meal: item.meal ?? null, note: item.note ?? null, kcalLow: item.kcalLow ?? null, kcalHigh: item.kcalHigh ?? null,
  proteinLow: item.proteinLow ?? null, proteinHigh: item.proteinHigh ?? null, estimateSource: item.estimateSource ?? null,
  source: item.source ?? null, grams: item.grams ?? null, externalId: item.externalId ?? null, createdAt: now, updatedAt: now,
});

/**
 * The item, its day marked pending and its event: one statement (docs/decisions/0028-raw-sql-on-hot-paths.md).
 * An imported item whose entry is already stored (its external id) changes nothing: no day, no event.
 */
const insertItem = (row: FoodItem, alongside: Prisma.Sql[] = []) => {
  const event = outboxRow(nutritionEvents.itemLogged, { accountId: row.accountId, itemId: row.id, date: row.date });
  return changeWithEvent(
    Prisma.sql`INSERT INTO food_item (id, account_id, date, name, kcal, protein_g, carbs_g, fat_g, fiber_g, quantity, unit, meal, note,
        kcal_low, kcal_high, protein_low, protein_high, estimate_source, source, grams, external_id, created_at, updated_at)
      VALUES (${row.id}::uuid, ${row.accountId}::uuid, ${row.date}, ${row.name}, ${row.kcal}, ${row.proteinG}, ${row.carbsG}, ${row.fatG},
        ${row.fiberG}, ${row.quantity}, ${row.unit}, ${row.meal}, ${row.note}, ${row.kcalLow}, ${row.kcalHigh}, ${row.proteinLow},
        ${row.proteinHigh}, ${row.estimateSource}, ${row.source}, ${row.grams}, ${row.externalId}, ${row.createdAt}, ${row.updatedAt})
      ${row.externalId === null ? Prisma.empty : Prisma.sql`ON CONFLICT (account_id, external_id) DO NOTHING`}
      RETURNING account_id, date`,
    event,
    markPending(Prisma.sql`SELECT account_id, date FROM changed`, event.id),
    ...alongside,
  );
};

/** Every food_item column under its FoodItem field name, for reads on the driver that hand rows to foodItemView. */
const foodItemColumns = Prisma.sql`id, account_id AS "accountId", date, name, kcal, protein_g AS "proteinG",
  carbs_g AS "carbsG", fat_g AS "fatG", fiber_g AS "fiberG", quantity, unit, meal, note, kcal_low AS "kcalLow", kcal_high AS "kcalHigh",
  protein_low AS "proteinLow", protein_high AS "proteinHigh", estimate_source AS "estimateSource", source, grams,
  external_id AS "externalId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A day's sums over its food_item rows (docs/decisions/0067-day-macros-sum-what-is-known.md): SUM skips unknown values. */
const DAY_SUMS = Prisma.sql`sum(kcal) AS kcal, sum(protein_g) AS protein_g, sum(fat_g) AS fat_g, sum(carbs_g) AS carbs_g,
  sum(fiber_g) AS fiber_g, count(*) FILTER (WHERE fat_g IS NULL OR carbs_g IS NULL OR fiber_g IS NULL)::int AS macros_unknown_items`;

/** The columns of a day's sums, as DAY_SUMS and `daily_total` name them. */
interface DaySumsRow {
  kcal: number;
  protein_g: number;
  fat_g: number | null;
  carbs_g: number | null;
  fiber_g: number | null;
  macros_unknown_items: number;
}

const dayTotalOf = (date: string, row: DaySumsRow): DayTotal => ({
  date, kcal: row.kcal, proteinG: row.protein_g, fatG: row.fat_g, carbsG: row.carbs_g, fiberG: row.fiber_g,
  macrosUnknownItems: row.macros_unknown_items,
});

const DAY_SUMS_COLUMNS = Prisma.sql`kcal, protein_g, fat_g, carbs_g, fiber_g, macros_unknown_items`;

/** The columns of `account_targets` a day is judged against, and the targets they hold. */
interface TargetsRow {
  daily_kcal_target: number | null;
  protein_target_g: number | null;
}

/** A day that an item event marked pending, and that event. */
export interface PendingDayRef {
  accountId: string;
  date: string;
  eventId: string;
}

const targetsOf = (row: TargetsRow): NutritionTargets => ({ dailyKcalTarget: row.daily_kcal_target, proteinTargetG: row.protein_target_g });

/**
 * The only place that talks to the database. Every query is scoped by account. Logging one item, a day's
 * items and the dashboard's reads run on the driver (`db.query`), the rest through the Prisma client:
 * docs/decisions/0036-hot-paths-on-the-driver.md.
 */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });
  const foods = foodQueries(db);
  const ownFoods = ownFoodStore(db, prisma);

  /** The day's mark with its items' count and calories. */
  const dayOf = async (accountId: string, date: string) => {
    const [row] = await db.query<{ mark: string | null; item_count: number; kcal: number }>(Prisma.sql`
      SELECT (SELECT mark FROM day_mark WHERE account_id = ${accountId}::uuid AND date = ${date}) AS mark,
        count(*)::int AS item_count, COALESCE(sum(kcal), 0)::float8 AS kcal
      FROM food_item WHERE account_id = ${accountId}::uuid AND date = ${date}`);
    return nutritionDay(date, row?.mark ?? null, row?.item_count ?? 0, row?.kcal ?? 0);
  };

  /** Of these (account, day, event), those whose day is still pending on that very event: one statement. */
  const stillPending = async (days: PendingDayRef[]) =>
    days.length === 0
      ? []
      : db.query<PendingDayRef>(Prisma.sql`
          SELECT DISTINCT p.account_id::text AS "accountId", p.date, p.event_id::text AS "eventId"
          FROM pending_day p JOIN unnest(${days.map((d) => d.accountId)}::uuid[], ${days.map((d) => d.date)}::text[], ${days.map((d) => d.eventId)}::uuid[])
            AS d(account_id, date, event_id) ON p.account_id = d.account_id AND p.date = d.date AND p.event_id = d.event_id`);

  /** The day's total becomes the sum of its items, and the day stops pending on `eventId` (if it still does). */
  const sumDay = (accountId: string, date: string, eventId: string | null) =>
    // Two statements in one batch transaction: the second takes its snapshot once the first holds the lock.
    prisma.$transaction([
      prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${accountId}/${date}`}, 0))`,
      prisma.$executeRaw`
        WITH total AS (
          SELECT ${DAY_SUMS}, count(*)::int AS n
          FROM food_item WHERE account_id = ${accountId}::uuid AND date = ${date}
        ), stored AS (
          INSERT INTO daily_total (account_id, date, ${DAY_SUMS_COLUMNS}, item_count, updated_at)
          SELECT ${accountId}::uuid, ${date}, ${DAY_SUMS_COLUMNS}, n, now() FROM total WHERE n > 0
          ON CONFLICT (account_id, date) DO UPDATE
            SET kcal = EXCLUDED.kcal, protein_g = EXCLUDED.protein_g, fat_g = EXCLUDED.fat_g, carbs_g = EXCLUDED.carbs_g,
              fiber_g = EXCLUDED.fiber_g, macros_unknown_items = EXCLUDED.macros_unknown_items,
              item_count = EXCLUDED.item_count, updated_at = EXCLUDED.updated_at
        ), emptied AS (
          DELETE FROM daily_total WHERE account_id = ${accountId}::uuid AND date = ${date} AND (SELECT n FROM total) = 0
        )
        DELETE FROM pending_day
        WHERE account_id = ${accountId}::uuid AND date = ${date} AND event_id = ${eventId}::uuid`,
    ]);

  /**
   * The days of several events: which of them are still pending on their event is one statement, and a day named
   * by several events is summed once (docs/decisions/0088-batched-event-handling.md).
   */
  const recomputeDays = async (days: PendingDayRef[]) => {
    for (const day of await stillPending(days)) await sumDay(day.accountId, day.date, day.eventId);
  };

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    /** Runs `fn` unless a pass of the same name runs on any replica; null then (see runExclusively). */
    exclusively: <T>(name: string, fn: () => Promise<T>) => runExclusively(db, name, fn),
    accountData: accountData(prisma),
    foods,
    ownFoods,

    /**
     * Logs items atomically (a described meal is all logged or not at all), an event for each. `alongside`
     * gets the items' views and gives statements to commit with them or not at all (an Idempotency-Key's record).
     */
    async addItems(items: NewFoodItem[], alongside: (views: ReturnType<typeof foodItemView>[]) => Prisma.Sql[] = () => []) {
      const now = Date.now();
      // A millisecond apart, so the day lists them in the order given (a copied meal as it was, a described one as said).
      const rows = items.map((item, index) => newRow(item, new Date(now + index)));
      const views = rows.map(foodItemView);
      const more = alongside(views);
      // One item is one statement, atomic alone; several need a transaction (a batch: no interactive round trips).
      if (rows.length === 1) await db.query(insertItem(rows[0]!, more));
      else await prisma.$transaction([...rows.map((row) => prisma.$queryRaw(insertItem(row))), ...more.map((statement) => prisma.$executeRaw(statement))]);
      return views;
    },

    /**
     * Stores an import's items once per external id (`import:` + the entry's key), each new one with its event and
     * its day marked; answers the id stored under each row's key, in order.
     */
    importItems: (accountId: string, items: (NewFoodItem & { externalId: string })[]): Promise<string[]> =>
      prisma.$transaction(async (tx) => {
        const now = Date.now();
        for (const [index, item] of items.entries()) await tx.$queryRaw(insertItem(newRow(item, new Date(now + index))));
        const keys = items.map((item) => item.externalId);
        const stored = await tx.$queryRaw<{ id: string; external_id: string }[]>`SELECT id, external_id FROM food_item
          WHERE account_id = ${accountId}::uuid AND external_id = ANY(${keys}::text[])`;
        const idOf = new Map(stored.map((row) => [row.external_id, row.id]));
        return items.map((item) => idOf.get(item.externalId) ?? item.id);
      }),

    /** Deletes imported items by id, each with its event; an item logged another way is never touched. */
    removeImportedItems: (accountId: string, ids: string[]): Promise<number> =>
      prisma.$transaction(async (tx) => {
        const gone = await tx.$queryRaw<{ id: string; date: string }[]>`DELETE FROM food_item
          WHERE account_id = ${accountId}::uuid AND external_id LIKE 'import:%' AND id = ANY(${ids}::uuid[]) RETURNING id, date`;
        for (const { id, date } of gone) {
          await markChanged(tx, accountId, [date], outboxRow(nutritionEvents.itemDeleted, { accountId, itemId: id, date }));
        }
        return gone.length;
      }),

    updateItem: (accountId: string, id: string, changes: FoodItemChanges) =>
      prisma.$transaction(async (tx) => {
        const before = await tx.foodItem.findFirst({ where: { id, accountId } });
        if (!before) return null;
        const corrected = changes.kcal !== undefined || changes.proteinG !== undefined;
        // An item deleted meanwhile by another request is a 404, not a failed update.
        const { count } = await tx.foodItem.updateMany({ where: { id, accountId }, data: corrected ? { ...changes, ...handTyped } : changes });
        if (count === 0) return null;
        const row = await tx.foodItem.findUniqueOrThrow({ where: { id } });
        const moved = row.date !== before.date;
        const event = outboxRow(nutritionEvents.itemUpdated, {
          accountId, itemId: id, date: row.date, previousDate: moved ? before.date : null,
        });
        await markChanged(tx, accountId, [row.date, before.date], event);
        return foodItemView(row);
      }),

    deleteItem: (accountId: string, id: string) =>
      prisma.$transaction(async (tx) => {
        const item = await tx.foodItem.findFirst({ where: { id, accountId } });
        if (!item) return false;
        // Two deletions of one item at once: the second finds it gone here, and is a 404 with no second event.
        const { count } = await tx.foodItem.deleteMany({ where: { id, accountId } });
        if (count === 0) return false;
        const event = outboxRow(nutritionEvents.itemDeleted, { accountId, itemId: id, date: item.date });
        await markChanged(tx, accountId, [item.date], event);
        return true;
      }),

    /** What a copy of each item of the day (of its `meal` only, when given) needs, in the order they were logged; at most `limit`. */
    itemsToCopy: (accountId: string, { date, meal }: { date: string; meal?: string | undefined }, limit: number) =>
      prisma.foodItem.findMany({
        where: { accountId, date, ...(meal === undefined ? {} : { meal }) },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: limit,
        omit: { id: true, accountId: true, date: true, createdAt: true, updatedAt: true },
      }),

    /** The day's items in the order they were logged: the food list's read and the coach's grounding, so on the driver. */
    async listItems(accountId: string, date: string) {
      const rows = await db.query<FoodItem>(Prisma.sql`SELECT ${foodItemColumns} FROM food_item
        WHERE account_id = ${accountId}::uuid AND date = ${date} ORDER BY created_at, id`);
      return rows.map(foodItemView);
    },

    /**
     * Each day with items or a mark in [from, to], summed from the items (not the projection, which may be a step
     * behind), and whether it counts; `asOf`, the statement's start, when they were read.
     */
    async intakeDays(accountId: string, from: string, to: string) {
      type Day = { date: string; kcal: number; proteinG: number; itemCount: number; mark: string | null };
      const [row] = await db.query<{ asOf: string; days: Day[] }>(Prisma.sql`
        SELECT statement_timestamp()::text AS "asOf", coalesce((SELECT json_agg(d ORDER BY d.date) FROM (
          SELECT COALESCE(i.date, m.date) AS date, COALESCE(i.kcal, 0) AS kcal, COALESCE(i."proteinG", 0) AS "proteinG",
            COALESCE(i."itemCount", 0) AS "itemCount", m.mark
          FROM (SELECT date, sum(kcal)::float8 AS kcal, sum(protein_g)::float8 AS "proteinG", count(*)::int AS "itemCount" FROM food_item
                WHERE account_id = ${accountId}::uuid AND date BETWEEN ${from} AND ${to} GROUP BY date) i
          FULL JOIN (SELECT date, mark FROM day_mark WHERE account_id = ${accountId}::uuid AND date BETWEEN ${from} AND ${to}) m ON m.date = i.date) d),
          '[]') AS days`);
      const { asOf, days } = row!;
      return { asOf, days: days.map(({ mark, ...day }) => ({ ...day, counted: counts(markOf(mark), day.itemCount) })) };
    },

    day: dayOf,

    /** Marks the day (`auto` forgets the mark), with its event, in one transaction; then the day as it now reads. */
    async markDay(accountId: string, date: string, mark: DayMark) {
      await prisma.$transaction(async (tx) => {
        if (mark === "auto") await tx.dayMark.deleteMany({ where: { accountId, date } });
        else {
          await tx.dayMark.upsert({
            where: { accountId_date: { accountId, date } },
            create: { accountId, date, mark },
            update: { mark, updatedAt: new Date() },
          });
        }
        await tx.outboxEvent.create({ data: outboxRow(nutritionEvents.dayMarked, { accountId, date }) });
      });
      return dayOf(accountId, date);
    },

    /**
     * The projection step: the day's total becomes the sum of its current items, whatever events came before,
     * so duplicates and replays are harmless. The advisory lock orders concurrent recomputes of one day, and
     * each sums with a snapshot taken after it holds the lock.
     *
     * For an event, only while the day is still pending on that event: once a later write has marked the day
     * (its own event will recompute it) or a recompute has cleared it, this one would only repeat work. A day
     * never goes back to pending on an event that was already replaced, so the check needs no lock. A consumer
     * behind a burst of writes to one day then sums the day once, not once per write.
     */
    recomputeDay: (accountId: string, date: string, eventId?: string) =>
      eventId === undefined ? sumDay(accountId, date, null) : recomputeDays([{ accountId, date, eventId }]),

    recomputeDays,

    /** Stored totals, newest first, plus the days still pending, computed now from their items. */
    async recentTotals(accountId: string, limit: number) {
      const pending = await prisma.pendingDay.findMany({ where: { accountId }, select: { date: true } });
      const stored = await db.query<DaySumsRow & { date: string }>(Prisma.sql`SELECT date, ${DAY_SUMS_COLUMNS} FROM daily_total
        WHERE account_id = ${accountId}::uuid ORDER BY date DESC LIMIT ${limit + pending.length}`);
      const fresh = new Map<string, DayTotal | null>();
      for (const { date } of pending) {
        const [sums] = await db.query<DaySumsRow>(Prisma.sql`SELECT ${DAY_SUMS} FROM food_item
          WHERE account_id = ${accountId}::uuid AND date = ${date} HAVING count(*) > 0`);
        fresh.set(date, sums ? dayTotalOf(date, sums) : null);
      }
      return { stored: stored.map((row) => dayTotalOf(row.date, row)), fresh };
    },

    /**
     * The day's total (summed from its items while the day is pending, else the stored one) with the targets it
     * is judged against, in one statement (docs/decisions/0047-one-statement-per-bus-question.md); null without
     * items that day.
     */
    async dayTotal(accountId: string, date: string): Promise<{ total: DayTotal; targets: NutritionTargets } | null> {
      const rows = await db.query<DaySumsRow & TargetsRow>(Prisma.sql`
        WITH pending AS (SELECT EXISTS (SELECT 1 FROM pending_day WHERE account_id = ${accountId}::uuid AND date = ${date}) AS yes)
        SELECT t.*, a.daily_kcal_target, a.protein_target_g FROM (
          SELECT ${DAY_SUMS} FROM food_item
          WHERE account_id = ${accountId}::uuid AND date = ${date} AND (SELECT yes FROM pending) HAVING count(*) > 0
          UNION ALL
          SELECT ${DAY_SUMS_COLUMNS} FROM daily_total
          WHERE account_id = ${accountId}::uuid AND date = ${date} AND NOT (SELECT yes FROM pending)
        ) t LEFT JOIN account_targets a ON a.account_id = ${accountId}::uuid`);
      const [row] = rows;
      if (!row) return null;
      // No targets row reads as targets of null, which judges the day the same way.
      return { total: dayTotalOf(date, row), targets: targetsOf(row) };
    },

    async getTargets(accountId: string): Promise<NutritionTargets | null> {
      const [row] = await db.query<TargetsRow>(Prisma.sql`
        SELECT daily_kcal_target, protein_target_g FROM account_targets WHERE account_id = ${accountId}::uuid`);
      return row ? targetsOf(row) : null;
    },

    /** Applies a targets event unless a newer one was already applied (events may arrive out of order). */
    async applyTargets(accountId: string, targets: NutritionTargets, asOf: Date) {
      await prisma.$executeRaw`
        INSERT INTO account_targets (account_id, daily_kcal_target, protein_target_g, as_of)
        VALUES (${accountId}::uuid, ${targets.dailyKcalTarget}, ${targets.proteinTargetG}, ${asOf})
        ON CONFLICT (account_id) DO UPDATE
          SET daily_kcal_target = EXCLUDED.daily_kcal_target, protein_target_g = EXCLUDED.protein_target_g, as_of = EXCLUDED.as_of
          WHERE account_targets.as_of <= EXCLUDED.as_of`;
    },

    /** Days still marked pending long after their write: their event was lost (or is stuck) on the way. */
    async stalePendingDays(olderThan: Date) {
      return prisma.pendingDay.findMany({
        where: { createdAt: { lt: olderThan } },
        select: { accountId: true, date: true, eventId: true },
      });
    },

    /** Days from `since` (YYYY-MM-DD) on whose stored total differs from the sum of their items. */
    async mismatchedDays(since: string) {
      const rows = await prisma.$queryRaw<{ account_id: string; date: string }[]>`
        SELECT COALESCE(i.account_id, t.account_id)::text AS account_id, COALESCE(i.date, t.date) AS date
        FROM (SELECT account_id, date, ${DAY_SUMS}, COUNT(*) AS n
              FROM food_item WHERE date >= ${since} GROUP BY account_id, date) i
        FULL JOIN (SELECT * FROM daily_total WHERE date >= ${since}) t ON t.account_id = i.account_id AND t.date = i.date
        WHERE t.item_count IS DISTINCT FROM i.n OR t.macros_unknown_items IS DISTINCT FROM i.macros_unknown_items
           OR abs(t.kcal - i.kcal) > 1e-6 OR abs(t.protein_g - i.protein_g) > 1e-6
           OR (t.fat_g IS NULL) <> (i.fat_g IS NULL) OR abs(t.fat_g - i.fat_g) > 1e-6
           OR (t.carbs_g IS NULL) <> (i.carbs_g IS NULL) OR abs(t.carbs_g - i.carbs_g) > 1e-6
           OR (t.fiber_g IS NULL) <> (i.fiber_g IS NULL) OR abs(t.fiber_g - i.fiber_g) > 1e-6`;
      return rows.map((r) => ({ accountId: r.account_id, date: r.date }));
    },
  };
};

export type Store = ReturnType<typeof createStore>;
