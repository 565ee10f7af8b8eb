import { createHash, randomUUID } from "node:crypto";
import { operations, refuseIfTooFarAhead } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { importedFile, importedRow } from "../domain/workout-rows.ts";
import type { ActivityFileReader } from "../reader/activity-file-reader.ts";
import { estimateMissingEnergy } from "../handlers/energy-estimates.ts";
import type { ImportOutcome, Store } from "../store/store.ts";

/** A file's identity is its content: the same bytes again update the workouts they made. */
const fileId = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** One workout's outcome, or a multisport file's: its first leg's, with every leg listed. */
const answerOf = (outcomes: ImportOutcome[]) => (outcomes.length > 1 ? { ...outcomes[0]!, legs: outcomes } : outcomes[0]!);

export const importRoute = (context: ServiceContext<Store>, reader: ActivityFileReader, { estimateTimeoutMs }: { estimateTimeoutMs: number }) => {
  const { app, store, relay } = context;
  // A JSON row's startedAt is checked by its schema; a file's only once read.
  const readActivities = async (bytes: Buffer) => {
    const activities = await reader.read(bytes);
    for (const activity of activities) refuseIfTooFarAhead(activity.startedAt, "the file's start time");
    return activities;
  };

  serveOperation(app, operations.importWorkout, async ({ body, query, caller, record }) => {
    const { accountId } = caller;
    if (!Buffer.isBuffer(body)) {
      const outcomes = await store.importWorkouts([importedRow({ id: randomUUID(), accountId }, body)], { matchActivity: false }, (done) => record(answerOf(done)));
      relay.kick();
      return answerOf(outcomes);
    }
    const activities = await readActivities(body);
    const estimates = await estimateMissingEnergy(context, accountId, activities, estimateTimeoutMs);
    const file = fileId(body);
    const multisport = activities.length > 1;
    const eventId = multisport ? randomUUID() : null;
    const workouts = activities.map((activity, i) =>
      importedFile({ id: randomUUID(), accountId }, activity, {
        source: query.source,
        // Each leg of a multisport file is known by the file and its place in it.
        externalId: multisport ? `${file}#${i + 1}` : file,
        eventId,
        estimate: estimates[i]!,
      }),
    );
    const outcomes = await store.importWorkouts(workouts, { matchActivity: true }, (done) => record(answerOf(done)));
    relay.kick();
    return answerOf(outcomes);
  });
};
