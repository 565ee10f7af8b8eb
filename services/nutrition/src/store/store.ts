import { nutritionEvents, outboxRow } from "@fit/contracts";
import { createOutboxSource, ping, type Database } from "@fit/db";
import type { DayTotal, NutritionTargets } from "../domain/daily-total.ts";
import { foodItemView } from "./food-item-view.ts";
import { accountData } from "./account-data.ts";
import { PrismaClient, type Prisma } from "./generated/client.ts";

export type NewFoodItem = Omit<Prisma.FoodItemUncheckedCreateInput, "createdAt" | "updatedAt"> & { id: string };
export type FoodItemChanges = Omit<Prisma.FoodItemUncheckedUpdateInput, "id" | "accountId" | "createdAt" | "updatedAt">;

type Tx = Prisma.TransactionClient;

const noEstimate = { kcalLow: null, kcalHigh: null, proteinLow: null, proteinHigh: null, estimateSource: null };

/**
 * Records which days a write changed, in the write's own transaction, together with the event that will
 * make the projection catch up. Reads recompute these days until the event has been applied.
 */
const markChanged = async (tx: Tx, accountId: string, dates: string[], event: ReturnType<typeof outboxRow>) => {
  for (const date of new Set(dates)) {
    await tx.pendingDay.upsert({
      where: { accountId_date: { accountId, date } },
      create: { accountId, date, eventId: event.id },
      update: { eventId: event.id, createdAt: new Date() },
    });
  }
  await tx.outboxEvent.create({ data: event });
};

/** The day's sums and item count, or null for a day without items. */
const sumDay = async (client: Tx | PrismaClient, accountId: string, date: string) => {
  const { _sum, _count } = await client.foodItem.aggregate({
    where: { accountId, date },
    _sum: { kcal: true, proteinG: true },
    _count: true,
  });
  return _count === 0 ? null : { date, kcal: _sum.kcal ?? 0, proteinG: _sum.proteinG ?? 0, itemCount: _count };
};

/** The only place that talks to the database. Every query is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    outbox: createOutboxSource(prisma),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    /** Logs items in one transaction (a described meal is all logged or not at all), an event for each. */
    addItems: (items: NewFoodItem[]) =>
      prisma.$transaction(async (tx) => {
        const rows = [];
        for (const item of items) {
          rows.push(await tx.foodItem.create({ data: item }));
          const event = outboxRow(nutritionEvents.itemLogged, { accountId: item.accountId, itemId: item.id, date: item.date });
          await markChanged(tx, item.accountId, [item.date], event);
        }
        return rows.map(foodItemView);
      }),

    updateItem: (accountId: string, id: string, changes: FoodItemChanges) =>
      prisma.$transaction(async (tx) => {
        const before = await tx.foodItem.findFirst({ where: { id, accountId } });
        if (!before) return null;
        // Numbers corrected by hand are no longer the coach's estimate.
        const corrected = changes.kcal !== undefined || changes.proteinG !== undefined;
        const row = await tx.foodItem.update({ where: { id }, data: corrected ? { ...changes, ...noEstimate } : changes });
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
        await tx.foodItem.delete({ where: { id } });
        const event = outboxRow(nutritionEvents.itemDeleted, { accountId, itemId: id, date: item.date });
        await markChanged(tx, accountId, [item.date], event);
        return true;
      }),

    async listItems(accountId: string, date: string) {
      const rows = await prisma.foodItem.findMany({ where: { accountId, date }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
      return rows.map(foodItemView);
    },

    /**
     * The projection step: the day's total becomes the sum of its current items, whatever events came before,
     * so duplicates and replays are harmless. The advisory lock orders concurrent recomputes of one day, and
     * each sums with a snapshot taken after it holds the lock.
     */
    recomputeDay: (accountId: string, date: string, eventId?: string) =>
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${accountId}/${date}`}, 0))`;
        const total = await sumDay(tx, accountId, date);
        if (total) {
          const values = { kcal: total.kcal, proteinG: total.proteinG, itemCount: total.itemCount, updatedAt: new Date() };
          await tx.dailyTotal.upsert({
            where: { accountId_date: { accountId, date } },
            create: { accountId, date, ...values },
            update: values,
          });
        } else {
          await tx.dailyTotal.deleteMany({ where: { accountId, date } });
        }
        if (eventId) await tx.pendingDay.deleteMany({ where: { accountId, date, eventId } });
      }),

    /** Stored totals, newest first, plus the days still pending, computed now from their items. */
    async recentTotals(accountId: string, limit: number) {
      const pending = await prisma.pendingDay.findMany({ where: { accountId }, select: { date: true } });
      const stored = await prisma.dailyTotal.findMany({
        where: { accountId },
        orderBy: { date: "desc" },
        take: limit + pending.length,
        select: { date: true, kcal: true, proteinG: true },
      });
      const fresh = new Map<string, DayTotal | null>();
      for (const { date } of pending) fresh.set(date, await sumDay(prisma, accountId, date));
      return { stored, fresh };
    },

    async dayTotal(accountId: string, date: string): Promise<DayTotal | null> {
      const pending = await prisma.pendingDay.findUnique({ where: { accountId_date: { accountId, date } } });
      if (pending) return sumDay(prisma, accountId, date);
      return prisma.dailyTotal.findUnique({
        where: { accountId_date: { accountId, date } },
        select: { date: true, kcal: true, proteinG: true },
      });
    },

    async getTargets(accountId: string): Promise<NutritionTargets | null> {
      return prisma.accountTargets.findUnique({
        where: { accountId },
        select: { dailyKcalTarget: true, proteinTargetG: true },
      });
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

    /** Days whose stored total differs from the sum of their items: what a reconciliation pass repairs. */
    async mismatchedDays() {
      const rows = await prisma.$queryRaw<{ account_id: string; date: string }[]>`
        SELECT COALESCE(i.account_id, t.account_id)::text AS account_id, COALESCE(i.date, t.date) AS date
        FROM (SELECT account_id, date, SUM(kcal) AS kcal, SUM(protein_g) AS protein_g, COUNT(*) AS n
              FROM food_item GROUP BY account_id, date) i
        FULL JOIN daily_total t ON t.account_id = i.account_id AND t.date = i.date
        WHERE t.item_count IS DISTINCT FROM i.n
           OR abs(t.kcal - i.kcal) > 1e-6 OR abs(t.protein_g - i.protein_g) > 1e-6`;
      return rows.map((r) => ({ accountId: r.account_id, date: r.date }));
    },
  };
};

export type Store = ReturnType<typeof createStore>;
