import { createHash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { createMemoryKeyValue, type KeyValue, type Logger } from "@fit/bus";

/** Conflicts come only from other replicas (this one queues its own per key), so a few retries suffice. */
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
 * One request counted in a shared window: read the key, then write the next count only if nobody wrote since
 * (compare-and-set on the revision), else read again. A window opens at a key's first request and lasts
 * timeWindow, as with the plugin's own stores. Past the limit nothing is written: the request is refused
 * either way, and a flood then costs one read per request.
 */
const countIn = async (kv: KeyValue, key: string, timeWindow: number, max: number): Promise<Counted> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv.get(key);
    const now = Date.now();
    const seen = entry ? (JSON.parse(entry.value) as Window) : undefined;
    const open = seen && now < seen.start + timeWindow ? seen : undefined;
    if (open && open.n >= max) return { current: open.n + 1, ttl: open.start + timeWindow - now };
    const next = open ? { n: open.n + 1, start: open.start } : { n: 1, start: now };
    if ((await kv.compareAndSet(key, JSON.stringify(next), entry?.revision ?? null)) !== null) {
      return { current: next.n, ttl: next.start + timeWindow - now };
    }
  }
  throw new Error(`rate-limit counter ${key} stayed contended for ${ATTEMPTS} attempts`);
};

/** Runs work for one key after the previous work for that key in this process, so replicas only race each other. */
const queuedPerKey = () => {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
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
  const queued = queuedPerKey();
  let degraded = false;

  const count = async (key: string, timeWindow: number, max: number): Promise<Counted> => {
    try {
      const counted = await countIn(shared, key, timeWindow, max);
      if (degraded) logger.info({}, "rate-limit counters are shared again");
      degraded = false;
      return counted;
    } catch (err) {
      if (!degraded) logger.warn({ err }, "rate-limit counters unreachable: each gateway replica counts on its own until they are back");
      degraded = true;
      return countIn(local, key, timeWindow, max);
    }
  };

  return class SharedCounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number, max: number) {
      const hashed = createHash("sha256").update(key).digest("base64url");
      queued(hashed, () => count(hashed, timeWindow, max)).then(
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
