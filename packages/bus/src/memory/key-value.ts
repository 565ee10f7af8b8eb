import { checkKey } from "../key-value-names.ts";
import type { KeyValue, KeyValueOptions } from "../types.ts";

interface Stored {
  value: string;
  revision: number;
  writtenAt: number;
}

/**
 * A key-value bucket in this process, with the NATS bucket's rules: revisions, compare-and-set, and entries
 * dropped once not written for maxAgeMs. The map is kept in order of last write, so expired entries are
 * always at its front and each write sweeps them away.
 */
export const createMemoryKeyValue = ({ maxAgeMs }: KeyValueOptions): KeyValue => {
  const entries = new Map<string, Stored>();
  let lastRevision = 0;
  const live = (now: number, stored: Stored | undefined) => (stored && now - stored.writtenAt < maxAgeMs ? stored : undefined);

  return {
    async get(key) {
      checkKey(key);
      const stored = live(Date.now(), entries.get(key));
      return stored ? { value: stored.value, revision: stored.revision } : null;
    },
    async compareAndSet(key, value, revision) {
      checkKey(key);
      const now = Date.now();
      for (const [k, stored] of entries) {
        if (live(now, stored)) break;
        entries.delete(k);
      }
      if ((entries.get(key)?.revision ?? null) !== revision) return null;
      entries.delete(key);
      entries.set(key, { value, revision: ++lastRevision, writtenAt: now });
      return lastRevision;
    },
  };
};
