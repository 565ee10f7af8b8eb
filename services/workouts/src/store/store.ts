import { ActivityType, outboxRow, workoutsEvents } from "@fit/contracts";
import { createOutboxSource, ping, type Database } from "@fit/db";
import { keysetWhere, newestFirst, type RangePage } from "@fit/service-kit";
import { workoutView } from "./workout-view.ts";
import { accountData } from "./account-data.ts";
import { PrismaClient, type Prisma } from "./generated/client.ts";

/** A workout row as the domain builds it; `exercises` is the API's array. */
export type NewWorkout = Omit<Prisma.WorkoutUncheckedCreateInput, "createdAt" | "updatedAt" | "startedAt" | "exercises"> & {
  id: string;
  startedAt: Date;
  exercises: Prisma.InputJsonValue;
};
export type WorkoutChanges = Omit<Prisma.WorkoutUncheckedUpdateInput, "id" | "accountId" | "source" | "externalId" | "createdAt" | "updatedAt">;

type Tx = Prisma.TransactionClient;
type Row = Awaited<ReturnType<Tx["workout"]["create"]>>;

const recordEvent = (tx: Tx, def: (typeof workoutsEvents)[keyof typeof workoutsEvents], row: Row) =>
  tx.outboxEvent.create({
    data: outboxRow(def, {
      accountId: row.accountId,
      workoutId: row.id,
      startedAt: row.startedAt.getTime(),
      activityType: ActivityType.parse(row.activityType),
    }),
  });

/** The only place that talks to the database. Every query is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    addWorkout: (workout: NewWorkout) =>
      prisma.$transaction(async (tx) => {
        const row = await tx.workout.create({ data: workout });
        await recordEvent(tx, workoutsEvents.workoutLogged, row);
        return workoutView(row);
      }),

    /**
     * An import keyed by (source, externalId): the first time it logs, again it updates in place, so a file
     * uploaded twice or a sync that repeats itself never doubles a workout. The row lock of the upsert orders
     * two concurrent imports of the same file.
     */
    importWorkout: (workout: NewWorkout & { externalId: string }) =>
      prisma.$transaction(async (tx) => {
        const key = { accountId: workout.accountId, source: workout.source, externalId: workout.externalId };
        const before = await tx.workout.findUnique({ where: { accountId_source_externalId: key }, select: { id: true } });
        const { id, accountId, source, externalId, ...changes } = workout;
        const row = await tx.workout.upsert({
          where: { accountId_source_externalId: key },
          create: { id, accountId, source, externalId, ...changes },
          update: changes,
        });
        await recordEvent(tx, before ? workoutsEvents.workoutUpdated : workoutsEvents.workoutLogged, row);
        return { created: !before, workout: workoutView(row) };
      }),

    async getWorkout(accountId: string, id: string) {
      const row = await prisma.workout.findFirst({ where: { id, accountId } });
      return row ? workoutView(row) : null;
    },

    async listWorkouts(accountId: string, range: RangePage & { activityType?: string | undefined }) {
      const rows = await prisma.workout.findMany({
        where: { accountId, ...(range.activityType ? { activityType: range.activityType } : {}), AND: keysetWhere("startedAt", range) },
        orderBy: newestFirst("startedAt"),
        take: range.limit + 1,
      });
      return rows.map(workoutView);
    },

    updateWorkout: (accountId: string, id: string, changes: WorkoutChanges) =>
      prisma.$transaction(async (tx) => {
        const found = await tx.workout.findFirst({ where: { id, accountId }, select: { id: true } });
        if (!found) return null;
        const row = await tx.workout.update({ where: { id }, data: changes });
        await recordEvent(tx, workoutsEvents.workoutUpdated, row);
        return workoutView(row);
      }),

    deleteWorkout: (accountId: string, id: string) =>
      prisma.$transaction(async (tx) => {
        const row = await tx.workout.findFirst({ where: { id, accountId } });
        if (!row) return false;
        await tx.workout.delete({ where: { id } });
        await recordEvent(tx, workoutsEvents.workoutDeleted, row);
        return true;
      }),

    /** Sums over the workouts started in [from, to): one aggregate on the (account, startedAt) index. */
    async totalsBetween(accountId: string, from: number, to: number) {
      const { _count, _sum } = await prisma.workout.aggregate({
        where: { accountId, startedAt: { gte: new Date(from), lt: new Date(to) } },
        _count: true,
        _sum: { durationS: true, distanceM: true, energyKcal: true },
      });
      return { count: _count, durationS: _sum.durationS ?? 0, distanceM: _sum.distanceM ?? 0, energyKcal: _sum.energyKcal ?? 0 };
    },
  };
};

export type Store = ReturnType<typeof createStore>;
