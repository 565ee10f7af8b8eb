import { AppError } from "@fit/contracts";
import { NatsError, StorageType, StringCodec, type JetStreamClient, type KV } from "nats";
import { checkBucket, checkKey } from "../key-value-names.ts";
import type { KeyValue, KeyValueOptions } from "../types.ts";

const WRONG_LAST_SEQUENCE = 10071;
const sc = StringCodec();

/**
 * A JetStream KV bucket: one message per key (history 1), in memory, with the bucket's max_age as maxAgeMs.
 * compareAndSet is a publish expecting the key's last sequence, which the server checks atomically.
 * While the connection is down every operation fails at once rather than waiting for a reconnect. An operation
 * that fails otherwise opens the bucket again and is tried once more: a restarted server has lost a memory
 * bucket, and opening creates it.
 */
export const openNatsKeyValue = async (
  js: JetStreamClient,
  bucket: string,
  { maxAgeMs }: KeyValueOptions,
  connected: () => boolean,
): Promise<KeyValue> => {
  checkBucket(bucket);
  const unreachable = (detail: string) => new AppError("unavailable", `key-value bucket ${bucket} unreachable`, detail);
  const open = () => js.views.kv(bucket, { history: 1, ttl: maxAgeMs, storage: StorageType.Memory });
  let kv = open();

  const attempt = async <T>(work: (kv: KV) => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      if (!connected()) throw unreachable("nats is disconnected");
      try {
        return await work(await kv);
      } catch (err) {
        kv = open();
        kv.catch(() => undefined);
        if (tries === 2) throw unreachable(err instanceof Error ? err.message : String(err));
      }
    }
  };

  await attempt(async () => undefined);
  return {
    async get(key) {
      checkKey(key);
      const entry = await attempt((kv) => kv.get(key));
      return entry ? { value: sc.decode(entry.value), revision: entry.revision } : null;
    },
    async compareAndSet(key, value, revision) {
      checkKey(key);
      return attempt(async (kv) => {
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
