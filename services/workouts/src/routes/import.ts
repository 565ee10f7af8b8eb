import { createHash, randomUUID } from "node:crypto";
import { AppError, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { ActivityFileError, parseActivityFile } from "../domain/import/activity-file.ts";
import { importedFile, importedRow } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";

const readActivityFile = (bytes: Buffer) => {
  try {
    return parseActivityFile(bytes);
  } catch (error) {
    if (error instanceof ActivityFileError) throw new AppError("validation", error.message);
    throw error;
  }
};

/** A file's identity is its content: the same bytes again update the workout they made. */
const fileId = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export const importRoute = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.importWorkout, async ({ body, query, caller }) => {
    const identity = { id: randomUUID(), accountId: caller.accountId };
    const row = Buffer.isBuffer(body)
      ? importedFile(identity, readActivityFile(body), { source: query.source, externalId: fileId(body) })
      : importedRow(identity, body);
    const result = await store.importWorkout(row);
    relay.kick();
    return result;
  });
};
