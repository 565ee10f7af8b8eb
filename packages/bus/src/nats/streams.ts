import type { EventDef } from "@fit/contracts";
import { nanos, NatsError, StorageType, type JetStreamManager } from "nats";
import { DUPLICATE_WINDOW_MS, subjectsByStream } from "../event-codec.ts";
import type { Logger } from "../types.ts";

const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;

const apiErrCode = (err: unknown): number | undefined => (err instanceof NatsError ? err.api_error?.err_code : undefined);

/**
 * Creates each stream, or adds missing subjects to it. Subjects are only ever added: services start in any
 * order and each knows only the events it publishes or consumes, so one must not remove another's subjects.
 * Re-checks after writing because replicas starting together race on the same stream.
 */
export const ensureStreams = async (jsm: JetStreamManager, defs: readonly EventDef[], logger: Logger): Promise<void> => {
  for (const [name, wanted] of subjectsByStream(defs)) {
    for (let attempt = 1; ; attempt++) {
      if (await ensureOnce(jsm, name, [...wanted], logger)) break;
      if (attempt >= 5) throw new Error(`stream ${name} could not be brought to the wanted subjects`);
    }
  }
};

/** One read-then-write pass; true when the stream already had everything wanted. */
const ensureOnce = async (jsm: JetStreamManager, name: string, wanted: string[], logger: Logger): Promise<boolean> => {
  const duplicate_window = nanos(DUPLICATE_WINDOW_MS);
  let info;
  try {
    info = await jsm.streams.info(name);
  } catch (err) {
    if (apiErrCode(err) !== STREAM_NOT_FOUND) throw err;
    try {
      await jsm.streams.add({ name, subjects: wanted, storage: StorageType.File, duplicate_window });
      logger.info({ stream: name, subjects: wanted }, "stream created");
    } catch (addErr) {
      if (apiErrCode(addErr) !== STREAM_NAME_IN_USE) throw addErr;
    }
    return false;
  }
  const have = new Set(info.config.subjects ?? []);
  const missing = wanted.filter((s) => !have.has(s));
  if (missing.length === 0 && info.config.duplicate_window >= duplicate_window) return true;
  await jsm.streams.update(name, {
    ...info.config,
    subjects: [...have, ...missing],
    duplicate_window: Math.max(info.config.duplicate_window, duplicate_window),
  });
  logger.info({ stream: name, added: missing }, "stream updated");
  return false;
};
