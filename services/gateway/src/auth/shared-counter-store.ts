import { hash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { createMemoryKeyValue, type KeyValue, type Logger } from "@fit/bus";

/** Conflicts come only from other replicas (this one counts each key's requests in one write at a time). */
const ATTEMPTS = 10;
/** A lease holds about this much of a key's recent traffic (docs/decisions/0034-leased-rate-limit-counts.md). */
const LEASE_MS = 100;
/** A lease never takes more than this share of what is left of the limit, so replicas cannot starve each other. */
const LEASE_SHARE = 64;
/** Leases of closed windows are swept once this many keys are held. */
const SWEEP_ABOVE = 10_000;

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

/** Numbers first..last taken from a shared window; `full` when the window had reached the limit already. */
interface Reserved {
  start: number;
  first: number;
  last: number;
  full: boolean;
}

/**
 * The window a stored value holds, or none. A deleted or purged key reads as an empty value (the bucket's
 * marker), and the bucket is only as trustworthy as whoever can write it: anything that is not a window that has
 * begun counts as no window, so the next write replaces it and counting stays shared (docs/security.md).
 */
const windowOf = (value: string, now: number): Window | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const { n, start } = (parsed ?? {}) as Partial<Record<keyof Window, unknown>>;
  const valid = Number.isSafeInteger(n) && (n as number) >= 0 && Number.isSafeInteger(start) && (start as number) <= now;
  return valid ? { n: n as number, start: start as number } : undefined;
};

/**
 * Reserves `k` numbers plus up to `spare` more for requests to come, in a shared window: read the key, then
 * write the count plus what is taken only if nobody wrote since (compare-and-set on the revision), else read
 * again. A window opens at a key's first request and lasts timeWindow, as with the plugin's own stores. Once
 * the limit is reached nothing is written: the requests are refused either way.
 */
const reserve = async (kv: KeyValue, key: string, timeWindow: number, max: number, k: number, spare: number): Promise<Reserved> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv.get(key);
    const now = Date.now();
    const seen = entry ? windowOf(entry.value, now) : undefined;
    const open = seen && now < seen.start + timeWindow ? seen : undefined;
    if (open && open.n >= max) return { start: open.start, first: open.n + 1, last: open.n, full: true };
    const n = open?.n ?? 0;
    const take = k + Math.max(0, Math.min(spare, Math.floor((max - n - k) / LEASE_SHARE)));
    const next: Window = { n: n + take, start: open?.start ?? now };
    if ((await kv.compareAndSet(key, JSON.stringify(next), entry?.revision ?? null)) !== null) {
      return { start: next.start, first: n + 1, last: next.n, full: false };
    }
  }
  throw new Error(`rate-limit counter ${key} stayed contended for ${ATTEMPTS} attempts`);
};

/** What this replica holds of a key's window: numbers reserved and not yet handed out, and how busy the key is. */
interface Lease {
  end: number;
  next: number;
  last: number;
  full: boolean;
  /** Requests this replica counted in the window since it first reserved in it, and when that was. */
  served: number;
  since: number;
}

interface Waiting {
  timeWindow: number;
  max: number;
  resolve: (counted: Counted) => void;
  reject: (error: unknown) => void;
}

type Reserve = (key: string, timeWindow: number, max: number, k: number, spare: number) => Promise<Reserved>;

/**
 * Counts each key's requests from a lease of numbers reserved in the shared window, so a busy key costs one
 * round trip per lease rather than per request; a key whose window is full is refused here until it closes.
 * Reservations run one at a time per key, each carrying every request that arrived meanwhile.
 */
const leasedPerKey = (reserveShared: Reserve) => {
  const leases = new Map<string, Lease>();
  const waiting = new Map<string, Waiting[]>();
  const running = new Set<string>();

  const fromLease = (key: string, now: number): Counted | undefined => {
    const lease = leases.get(key);
    if (!lease || now >= lease.end) return undefined;
    if (lease.full) return { current: lease.last + 1, ttl: lease.end - now };
    if (lease.next > lease.last) return undefined;
    lease.served++;
    return { current: lease.next++, ttl: lease.end - now };
  };

  const sweep = (now: number) => {
    if (leases.size <= SWEEP_ABOVE) return;
    for (const [key, lease] of leases) if (now >= lease.end) leases.delete(key);
  };

  const reserveFor = async (key: string, batch: Waiting[]) => {
    const before = Date.now();
    const held = leases.get(key);
    const current = held && before < held.end ? held : undefined;
    // About LEASE_MS of the traffic this replica has seen on the key in this window; none for a quiet key.
    const spare = current ? Math.floor((current.served * LEASE_MS) / Math.max(before - current.since, LEASE_MS)) : 0;
    const { timeWindow, max } = batch[0]!; // a limiter's key always comes with the same window and limit
    const reserved = await reserveShared(key, timeWindow, max, batch.length, spare);
    const now = Date.now();
    const end = reserved.start + timeWindow;
    const sameWindow = current !== undefined && current.end === end;
    batch.forEach((request, i) =>
      request.resolve({ current: reserved.full ? reserved.first : reserved.first + i, ttl: Math.max(0, end - now) }),
    );
    leases.set(key, {
      end,
      next: reserved.full ? reserved.last + 1 : reserved.first + batch.length,
      last: reserved.last,
      full: reserved.full,
      served: (sameWindow ? current.served : 0) + batch.length,
      since: sameWindow ? current.since : now,
    });
    sweep(now);
  };

  const drain = async (key: string) => {
    running.add(key);
    for (let batch = waiting.get(key); batch?.length; batch = waiting.get(key)) {
      waiting.delete(key);
      // The reservation that just finished may cover requests that queued behind it.
      const now = Date.now();
      const rest = batch.filter((request) => {
        const counted = fromLease(key, now);
        if (counted) request.resolve(counted);
        return !counted;
      });
      if (rest.length === 0) continue;
      await reserveFor(key, rest).catch((error: unknown) => rest.forEach((request) => request.reject(error)));
    }
    running.delete(key);
  };

  return (key: string, timeWindow: number, max: number) =>
    new Promise<Counted>((resolve, reject) => {
      if (!running.has(key)) {
        const counted = fromLease(key, Date.now());
        if (counted) return resolve(counted);
      }
      waiting.set(key, [...(waiting.get(key) ?? []), { timeWindow, max, resolve, reject }]);
      if (!running.has(key)) void drain(key);
    });
};

/**
 * A store for @fastify/rate-limit whose counters live in a key-value bucket every gateway replica shares
 * (docs/decisions/0023-shared-rate-limit-counters.md), counted from leases (docs/decisions/0034-leased-rate-limit-counts.md).
 * Keys are hashed: no email or address is written to the bucket, and any limiter key fits NATS's key rules.
 * When the bucket cannot be reached the request is counted in this process instead, with a warning when that
 * starts and a note when sharing resumes: limits stay on, each replica counting on its own meanwhile.
 */
export const sharedCounterStore = ({ shared, maxAgeMs, logger }: { shared: KeyValue; maxAgeMs: number; logger: Logger }): FastifyRateLimitStoreCtor => {
  const local = createMemoryKeyValue({ maxAgeMs });
  let degraded = false;

  const reserveShared: Reserve = async (key, timeWindow, max, k, spare) => {
    try {
      const reserved = await reserve(shared, key, timeWindow, max, k, spare);
      if (degraded) logger.info({}, "rate-limit counters are shared again");
      degraded = false;
      return reserved;
    } catch (err) {
      if (!degraded) logger.warn({ err }, "rate-limit counters unreachable: each gateway replica counts on its own until they are back");
      degraded = true;
      return reserve(local, key, timeWindow, max, k, spare);
    }
  };
  const counter = leasedPerKey(reserveShared);

  return class SharedCounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number, max: number) {
      const hashed = hash("sha256", key, "base64url");
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
