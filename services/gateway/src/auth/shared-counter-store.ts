import { createHash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { createMemoryKeyValue, type KeyValue, type Logger } from "@fit/bus";

/** Conflicts come only from other replicas (this one counts each key's requests in one write at a time). */
const ATTEMPTS = 10;

interface Window {
  /** Requests counted in this window. */
  n: number;
  /** When its first request came (ms); the window closes timeWindow later. */
  start: number;
}

interface Counted {
  current: number;
  ttl: number;
}

/**
 * `k` requests counted in a shared window: read the key, then write the count plus k only if nobody wrote since
 * (compare-and-set on the revision), else read again. The i-th request is number n + i. A window opens at a
 * key's first request and lasts timeWindow, as with the plugin's own stores. Once the limit is reached nothing
 * is written: the requests are refused either way, and a flood then costs one read per batch.
 */
const countIn = async (kv: KeyValue, key: string, timeWindow: number, max: number, k: number): Promise<Counted[]> => {
  const numbered = (first: number, start: number, now: number) =>
    Array.from({ length: k }, (_, i) => ({ current: first + i, ttl: start + timeWindow - now }));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv.get(key);
    const now = Date.now();
    const seen = entry ? (JSON.parse(entry.value) as Window) : undefined;
    const open = seen && now < seen.start + timeWindow ? seen : undefined;
    if (open && open.n >= max) return numbered(open.n + 1, open.start, now);
    const next = open ? { n: open.n + k, start: open.start } : { n: k, start: now };
    if ((await kv.compareAndSet(key, JSON.stringify(next), entry?.revision ?? null)) !== null) {
      return numbered(next.n - k + 1, next.start, now);
    }
  }
  throw new Error(`rate-limit counter ${key} stayed contended for ${ATTEMPTS} attempts`);
};

interface Waiting {
  timeWindow: number;
  max: number;
  settle: (counted: Promise<Counted>) => void;
}

/**
 * One write at a time per key in this process, carrying every request that arrived meanwhile: a busy account's
 * requests do not queue one round trip each behind one another, and replicas only race each other.
 */
const batchedPerKey = (count: (key: string, timeWindow: number, max: number, k: number) => Promise<Counted[]>) => {
  const waiting = new Map<string, Waiting[]>();
  const running = new Set<string>();
  const drain = async (key: string) => {
    running.add(key);
    for (let batch = waiting.get(key); batch?.length; batch = waiting.get(key)) {
      waiting.delete(key);
      // A limiter's key always comes with the same window and limit: the first request's stand for the batch.
      const counted = count(key, batch[0]!.timeWindow, batch[0]!.max, batch.length);
      batch.forEach((request, i) => request.settle(counted.then((all) => all[i]!)));
      await counted.catch(() => undefined);
    }
    running.delete(key);
  };
  return (key: string, timeWindow: number, max: number) =>
    new Promise<Counted>((resolve, reject) => {
      const settle = (counted: Promise<Counted>) => void counted.then(resolve, reject);
      waiting.set(key, [...(waiting.get(key) ?? []), { timeWindow, max, settle }]);
      if (!running.has(key)) void drain(key);
    });
};

/**
 * A store for @fastify/rate-limit whose counters live in a key-value bucket every gateway replica shares
 * (docs/decisions/0023-shared-rate-limit-counters.md). Keys are hashed: no email or address is written to the
 * bucket, and any limiter key fits NATS's key rules. When the bucket cannot be reached the request is counted
 * in this process instead, with a warning when that starts and a note when sharing resumes: limits stay on,
 * each replica counting on its own meanwhile.
 */
export const sharedCounterStore = ({ shared, maxAgeMs, logger }: { shared: KeyValue; maxAgeMs: number; logger: Logger }): FastifyRateLimitStoreCtor => {
  const local = createMemoryKeyValue({ maxAgeMs });
  let degraded = false;

  const count = async (key: string, timeWindow: number, max: number, k: number): Promise<Counted[]> => {
    try {
      const counted = await countIn(shared, key, timeWindow, max, k);
      if (degraded) logger.info({}, "rate-limit counters are shared again");
      degraded = false;
      return counted;
    } catch (err) {
      if (!degraded) logger.warn({ err }, "rate-limit counters unreachable: each gateway replica counts on its own until they are back");
      degraded = true;
      return countIn(local, key, timeWindow, max, k);
    }
  };
  const counter = batchedPerKey(count);

  return class SharedCounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number, max: number) {
      const hashed = createHash("sha256").update(key).digest("base64url");
      counter(hashed, timeWindow, max).then(
        (counted) => callback(null, counted),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    /** Every limiter shares this store: its keys name the limiter. */
    child() {
      return this;
    }
  };
};
