import { ActivityType, outboxRow, type workoutsBus, workoutsEvents, type ReplyOf, type WorkoutImported } from "@fit/contracts";
import { createOutboxSource, newestFirstPage, ping, type Database, type RangePage } from "@fit/db";
import { workoutView } from "./workout-view.ts";
import { accountData } from "./account-data.ts";
import { richerFigures, richness, sameActivity, START_TOLERANCE_MS } from "../domain/duplicates.ts";
import { IMPORT_KEY_PREFIX } from "../domain/workout-rows.ts";
import type { Route } from "@fit/activity-files";
import { Prisma, PrismaClient } from "./generated/client.ts";

/** A workout row as the domain builds it; `exercises` is the API's array. */
export type NewWorkout = Omit<Prisma.WorkoutUncheckedCreateInput, "createdAt" | "updatedAt" | "startedAt" | "exercises" | "route"> & {
  id: string;
  startedAt: Date;
  exercises: Prisma.InputJsonValue;
};
/** An imported workout: known to its source by `externalId`, with the route its file drew, if any. */
export type ImportedWorkout = NewWorkout & { externalId: string; route: Route | null };
/** What one import did to one workout, as the answer names it. */
export type ImportOutcome = Omit<WorkoutImported, "legs">;
/** What an import's question did to one of its rows, as the bus answer names it. */
export type ImportedRowOutcome = ReplyOf<typeof workoutsBus.importWorkouts>["rows"][number];
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
  avg_cadence AS "avgCadence", exercises, event_id AS "eventId", created_at AS "createdAt", updated_at AS "updatedAt"`;

const saveRoute = (tx: Tx, workoutId: string, route: Route) => {
  const drawn = { segments: route.segments, splits: route.splits as unknown as Prisma.InputJsonValue };
  return tx.workoutRoute.upsert({ where: { workoutId }, create: { workoutId, ...drawn }, update: drawn });
};

/** The logged workout `workout` records again, with whether it has a track; null when it is an activity of its own. */
const loggedActivity = async (tx: Tx, workout: ImportedWorkout) => {
  const at = workout.startedAt.getTime();
  const logged = await tx.workout.findMany({
    where: {
      accountId: workout.accountId,
      activityType: workout.activityType,
      startedAt: { gte: new Date(at - START_TOLERANCE_MS), lte: new Date(at + START_TOLERANCE_MS) },
    },
    include: { route: { select: { workoutId: true } } },
  });
  return sameActivity(logged, workout);
};

/** The richer of the two recordings' figures stay on the logged workout; its title, source and key stay as they are. */
const mergeDuplicate = async (
  tx: Tx,
  logged: Row & { route: { workoutId: string } | null },
  workout: ImportedWorkout,
): Promise<ImportOutcome & Required<Pick<ImportOutcome, "duplicateOf" | "action">>> => {
  const duplicateOf = logged.id;
  if (richness(workout, workout.route !== null) <= richness(logged, logged.route !== null)) {
    return { created: false, workout: workoutView(logged), duplicateOf, action: "skipped" };
  }
  const row = await tx.workout.update({
    where: { id: logged.id },
    data: { startedAt: workout.startedAt, durationS: workout.durationS, ...richerFigures(logged, workout) },
  });
  if (workout.route) await saveRoute(tx, row.id, workout.route);
  await recordEvent(tx, workoutsEvents.workoutUpdated, row);
  return { created: false, workout: workoutView(row), duplicateOf, action: "updated" };
};

const importOne = async (tx: Tx, workout: ImportedWorkout, matchActivity: boolean): Promise<ImportOutcome> => {
  const key = { accountId: workout.accountId, source: workout.source, externalId: workout.externalId };
  const before = await tx.workout.findUnique({ where: { accountId_source_externalId: key }, select: { id: true } });
  const duplicate = !before && matchActivity ? await loggedActivity(tx, workout) : null;
  if (duplicate) return mergeDuplicate(tx, duplicate, workout);
  // A re-import keeps the event its legs were first linked in.
  const { id, accountId, source, externalId, route, eventId, ...changes } = workout;
  const row = await tx.workout.upsert({
    where: { accountId_source_externalId: key },
    create: { id, accountId, source, externalId, eventId, ...changes },
    update: changes,
  });
  if (route) await saveRoute(tx, row.id, route);
  else await tx.workoutRoute.deleteMany({ where: { workoutId: row.id } });
  await recordEvent(tx, before ? workoutsEvents.workoutUpdated : workoutsEvents.workoutLogged, row);
  return { created: !before, workout: workoutView(row) };
};

/** An import's row: nothing changes once its key is stored; new, it is matched against what is logged as a file's activity is. */
const importRow = async (tx: Tx, workout: ImportedWorkout): Promise<ImportedRowOutcome> => {
  const key = { accountId: workout.accountId, source: workout.source, externalId: workout.externalId };
  const before = await tx.workout.findUnique({ where: { accountId_source_externalId: key }, select: { id: true } });
  if (before) return { id: before.id, outcome: "existing" };
  const duplicate = await loggedActivity(tx, workout);
  if (duplicate) return { id: duplicate.id, outcome: (await mergeDuplicate(tx, duplicate, workout)).action };
  const { route, ...data } = workout;
  const row = await tx.workout.create({ data });
  if (route) await saveRoute(tx, row.id, route);
  await recordEvent(tx, workoutsEvents.workoutLogged, row);
  return { id: row.id, outcome: "created" };
};

/** One transaction at a time per account for writes that match activities: two imports of one activity at once still meet. */
const lockAccountImports = (tx: Tx, accountId: string) =>
  tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${accountId}, 0))`;

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
     * Imports keyed by (source, externalId): the first time each logs, again it updates in place, so a file
     * uploaded twice or a sync that repeats itself never doubles a workout; the row lock of the upsert orders two
     * concurrent imports of the same file. With `matchActivity` (files), a workout new by its key that records an
     * activity already logged (duplicates.ts) updates that one if richer, or is skipped; the account's imports then
     * take turns, so two files of one activity uploaded at once still meet. All or none of `workouts` are written.
     */
    importWorkouts: (
      workouts: readonly ImportedWorkout[],
      { matchActivity }: { matchActivity: boolean },
      alongside: (outcomes: ImportOutcome[]) => Prisma.Sql[] = () => [],
    ) =>
      prisma.$transaction(async (tx) => {
        const [first] = workouts;
        if (matchActivity && first) await lockAccountImports(tx, first.accountId);
        const outcomes: ImportOutcome[] = [];
        for (const workout of workouts) outcomes.push(await importOne(tx, workout, matchActivity));
        for (const statement of alongside(outcomes)) await tx.$executeRaw(statement);
        return outcomes;
      }),

    /** Which of `externalIds` the account already holds, by source and externalId: an import estimates energy only for the others. */
    storedKeys: async (accountId: string, externalIds: string[]): Promise<Set<string>> => {
      const rows = await prisma.workout.findMany({ where: { accountId, externalId: { in: externalIds } }, select: { source: true, externalId: true } });
      return new Set(rows.map((row) => `${row.source} ${row.externalId}`));
    },

    /**
     * An import's batch (the imports service's, over the bus), all or none: each row stored once per (source,
     * externalId), or matched to an activity already logged as a file's is (duplicates.ts), with its event.
     */
    importRows: (workouts: readonly ImportedWorkout[]): Promise<ImportedRowOutcome[]> =>
      prisma.$transaction(async (tx) => {
        const [first] = workouts;
        if (first) await lockAccountImports(tx, first.accountId);
        const outcomes: ImportedRowOutcome[] = [];
        for (const workout of workouts) outcomes.push(await importRow(tx, workout));
        return outcomes;
      }),

    /** Deletes an import's workouts by id, each with its event; a workout logged or uploaded another way is never touched. */
    removeImported: (accountId: string, ids: string[]): Promise<number> =>
      prisma.$transaction(async (tx) => {
        const gone = await tx.$queryRaw<{ id: string; started_at: Date; activity_type: string }[]>`DELETE FROM workout
          WHERE account_id = ${accountId}::uuid AND id = ANY(${ids}::uuid[]) AND starts_with(external_id, ${IMPORT_KEY_PREFIX})
          RETURNING id, started_at, activity_type`;
        if (gone.length) {
          await tx.outboxEvent.createMany({
            data: gone.map((row) => outboxRow(workoutsEvents.workoutDeleted, {
              accountId, workoutId: row.id, startedAt: row.started_at.getTime(), activityType: ActivityType.parse(row.activity_type),
            })),
          });
        }
        return gone.length;
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
        // One statement decides: a workout deleted meanwhile by another request is a 404, not a failed update.
        const { count } = await tx.workout.updateMany({ where: { id, accountId }, data: changes });
        if (count === 0) return null;
        const row = await tx.workout.findUniqueOrThrow({ where: { id } });
        await recordEvent(tx, workoutsEvents.workoutUpdated, row);
        return workoutView(row);
      }),

    deleteWorkout: (accountId: string, id: string) =>
      prisma.$transaction(async (tx) => {
        const row = await tx.workout.findFirst({ where: { id, accountId } });
        if (!row) return false;
        // Two deletions of one workout at once: the second finds it gone here, and is a 404 with no second event.
        const { count } = await tx.workout.deleteMany({ where: { id, accountId } });
        if (count === 0) return false;
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
