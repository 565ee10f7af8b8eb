import { AppError } from "@fit/contracts";
import { NatsError, StorageType, StringCodec, type JetStreamClient } from "nats";
import { checkBucket, checkKey } from "../key-value-names.ts";
import type { KeyValue, KeyValueOptions } from "../types.ts";

const WRONG_LAST_SEQUENCE = 10071;
const sc = StringCodec();

const unreachable = (bucket: string, err: unknown) =>
  err instanceof AppError ? err : new AppError("unavailable", `key-value bucket ${bucket} unreachable`, err instanceof Error ? err.message : String(err));

/**
 * A JetStream KV bucket: one message per key (history 1), in memory, with the bucket's max_age as maxAgeMs.
 * While the connection is down every operation fails at once rather than waiting for a reconnect.
 * compareAndSet is a publish expecting the key's last sequence, which the server checks atomically.
 */
export const openNatsKeyValue = async (
  js: JetStreamClient,
  bucket: string,
  { maxAgeMs }: KeyValueOptions,
  connected: () => boolean,
): Promise<KeyValue> => {
  checkBucket(bucket);
  const attempt = async <T>(work: () => Promise<T>): Promise<T> => {
    if (!connected()) throw new AppError("unavailable", `key-value bucket ${bucket} unreachable`, "nats is disconnected");
    try {
      return await work();
    } catch (err) {
      throw unreachable(bucket, err);
    }
  };
  const kv = await attempt(() => js.views.kv(bucket, { history: 1, ttl: maxAgeMs, storage: StorageType.Memory }));
  return {
    async get(key) {
      checkKey(key);
      const entry = await attempt(() => kv.get(key));
      return entry ? { value: sc.decode(entry.value), revision: entry.revision } : null;
    },
    async compareAndSet(key, value, revision) {
      checkKey(key);
      return attempt(async () => {
        try {
          return await kv.put(key, sc.encode(value), { previousSeq: revision ?? 0 });
        } catch (err) {
          if (err instanceof NatsError && err.api_error?.err_code === WRONG_LAST_SEQUENCE) return null;
          throw err;
        }
      });
    },
  };
};
