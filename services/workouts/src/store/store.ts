import { ActivityType, outboxRow, workoutsEvents } from "@fit/contracts";
import { createOutboxSource, newestFirstPage, ping, type Database, type RangePage } from "@fit/db";
import { workoutView } from "./workout-view.ts";
import { accountData } from "./account-data.ts";
import type { Route } from "../domain/import/route.ts";
import { Prisma, PrismaClient } from "./generated/client.ts";

/** A workout row as the domain builds it; `exercises` is the API's array. */
export type NewWorkout = Omit<Prisma.WorkoutUncheckedCreateInput, "createdAt" | "updatedAt" | "startedAt" | "exercises" | "route"> & {
  id: string;
  startedAt: Date;
  exercises: Prisma.InputJsonValue;
};
/** An imported workout: known to its source by `externalId`, with the route its file drew, if any. */
export type ImportedWorkout = NewWorkout & { externalId: string; route: Route | null };
export type WorkoutChanges = Omit<Prisma.WorkoutUncheckedUpdateInput, "id" | "accountId" | "source" | "externalId" | "createdAt" | "updatedAt" | "route">;

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

// Columns under the names the view reads, as the Prisma model names them.
const workoutColumns = Prisma.sql`id, account_id AS "accountId", source, external_id AS "externalId", activity_type AS "activityType",
  summary, description, started_at AS "startedAt", duration_s AS "durationS", moving_duration_s AS "movingDurationS",
  distance_m AS "distanceM", elevation_gain_m AS "elevationGainM", energy_kcal AS "energyKcal", energy_low AS "energyLow",
  energy_high AS "energyHigh", energy_source AS "energySource", avg_hr AS "avgHr", max_hr AS "maxHr", avg_power_w AS "avgPowerW",
  avg_cadence AS "avgCadence", exercises, created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * The only place that talks to the database. Every query is scoped by account. The list and the dashboard's
 * week totals run on the driver (`db.query`), the rest through the Prisma client:
 * docs/decisions/0036-hot-paths-on-the-driver.md.
 */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    /** `alongside` gets the workout's view and gives statements to commit with it or not at all (an Idempotency-Key's record). */
    addWorkout: (workout: NewWorkout, alongside: (view: ReturnType<typeof workoutView>) => Prisma.Sql[] = () => []) =>
      prisma.$transaction(async (tx) => {
        const row = await tx.workout.create({ data: workout });
        await recordEvent(tx, workoutsEvents.workoutLogged, row);
        const view = workoutView(row);
        for (const statement of alongside(view)) await tx.$executeRaw(statement);
        return view;
      }),

    /**
     * An import keyed by (source, externalId): the first time it logs, again it updates in place, so a file
     * uploaded twice or a sync that repeats itself never doubles a workout. The row lock of the upsert orders
     * two concurrent imports of the same file.
     */
    importWorkout: (
      workout: ImportedWorkout,
      alongside: (result: { created: boolean; workout: ReturnType<typeof workoutView> }) => Prisma.Sql[] = () => [],
    ) =>
      prisma.$transaction(async (tx) => {
        const key = { accountId: workout.accountId, source: workout.source, externalId: workout.externalId };
        const before = await tx.workout.findUnique({ where: { accountId_source_externalId: key }, select: { id: true } });
        const { id, accountId, source, externalId, route, ...changes } = workout;
        const row = await tx.workout.upsert({
          where: { accountId_source_externalId: key },
          create: { id, accountId, source, externalId, ...changes },
          update: changes,
        });
        if (route) {
          const drawn = { segments: route.segments, splits: route.splits as unknown as Prisma.InputJsonValue };
          await tx.workoutRoute.upsert({ where: { workoutId: row.id }, create: { workoutId: row.id, ...drawn }, update: drawn });
        } else await tx.workoutRoute.deleteMany({ where: { workoutId: row.id } });
        await recordEvent(tx, before ? workoutsEvents.workoutUpdated : workoutsEvents.workoutLogged, row);
        const result = { created: !before, workout: workoutView(row) };
        for (const statement of alongside(result)) await tx.$executeRaw(statement);
        return result;
      }),

    async getWorkout(accountId: string, id: string) {
      const row = await prisma.workout.findFirst({ where: { id, accountId } });
      return row ? workoutView(row) : null;
    },

    /** Null when the account has no such workout; empty lists when it has no route. */
    async getRoute(accountId: string, id: string): Promise<Route | null> {
      const row = await prisma.workout.findFirst({ where: { id, accountId }, select: { route: true } });
      if (!row) return null;
      return row.route
        ? { segments: row.route.segments as Route["segments"], splits: row.route.splits as unknown as Route["splits"] }
        : { segments: [], splits: [] };
    },

    async listWorkouts(accountId: string, range: RangePage & { activityType?: string | undefined }) {
      const activity = range.activityType ? Prisma.sql`AND activity_type = ${range.activityType}` : Prisma.empty;
      const rows = await db.query<Row>(
        Prisma.sql`SELECT ${workoutColumns} FROM workout WHERE account_id = ${accountId}::uuid ${activity} ${newestFirstPage("started_at", range)}`,
      );
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
      const [sums] = await db.query<{ count: number; duration_s: number; distance_m: number; energy_kcal: number }>(Prisma.sql`
        SELECT count(*)::int AS count, coalesce(sum(duration_s), 0)::float8 AS duration_s,
               coalesce(sum(distance_m), 0)::float8 AS distance_m, coalesce(sum(energy_kcal), 0)::float8 AS energy_kcal
        FROM workout WHERE account_id = ${accountId}::uuid AND started_at >= ${new Date(from)} AND started_at < ${new Date(to)}`);
      return { count: sums?.count ?? 0, durationS: sums?.duration_s ?? 0, distanceM: sums?.distance_m ?? 0, energyKcal: sums?.energy_kcal ?? 0 };
    },
  };
};

export type Store = ReturnType<typeof createStore>;
