import { createHash, randomUUID } from "node:crypto";
import { operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { importedFile, importedRow } from "../domain/workout-rows.ts";
import type { ActivityFileReader } from "../reader/activity-file-reader.ts";
import type { Store } from "../store/store.ts";

/** A file's identity is its content: the same bytes again update the workout they made. */
const fileId = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export const importRoute = ({ app, store, relay }: ServiceContext<Store>, reader: ActivityFileReader) => {
  serveOperation(app, operations.importWorkout, async ({ body, query, caller, record }) => {
    const identity = { id: randomUUID(), accountId: caller.accountId };
    const row = Buffer.isBuffer(body)
      ? importedFile(identity, await reader.read(body), { source: query.source, externalId: fileId(body) })
      : importedRow(identity, body);
    const result = await store.importWorkout(row, record);
    relay.kick();
    return result;
  });
};
