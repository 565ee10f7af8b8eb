import { createHash, randomUUID } from "node:crypto";
import { operations, refuseIfTooFarAhead } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { importedFile, importedRow } from "../domain/workout-rows.ts";
import type { ActivityFileReader } from "../reader/activity-file-reader.ts";
import type { Store } from "../store/store.ts";

/** A file's identity is its content: the same bytes again update the workout they made. */
const fileId = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export const importRoute = ({ app, store, relay }: ServiceContext<Store>, reader: ActivityFileReader) => {
  // A JSON row's startedAt is checked by its schema; a file's only once read.
  const readActivity = async (bytes: Buffer) => {
    const activity = await reader.read(bytes);
    refuseIfTooFarAhead(activity.startedAt, "the file's start time");
    return activity;
  };
  serveOperation(app, operations.importWorkout, async ({ body, query, caller, record }) => {
    const identity = { id: randomUUID(), accountId: caller.accountId };
    const row = Buffer.isBuffer(body)
      ? importedFile(identity, await readActivity(body), { source: query.source, externalId: fileId(body) })
      : importedRow(identity, body);
    const result = await store.importWorkout(row, record);
    relay.kick();
    return result;
  });
};
