// A steady, modest stream of writes (and some reads) from several accounts, recording every request's timing,
// status and envelope, so a fault test can say what callers saw during an outage and check afterwards that no
// acknowledged write was lost (docs/security.md#19-a-killed-service-loses-no-acknowledged-write).
import { setTimeout as delay } from "node:timers/promises";
import { ASSERTION_HEADER, signAssertion } from "@fit/service-kit";
import { onTestFinished } from "vitest";

type Target = "body-metrics" | "nutrition";
type Via = "gateway" | "direct";
interface Account {
  accountId: string;
  email: string;
  key: string;
}
export interface Sample {
  account: string;
  target: Target;
  via: Via;
  write: boolean;
  /** What the write carried to be found by afterwards (the weigh-in's note, the food item's name). */
  tag?: string;
  startedAt: number;
  endedAt: number;
  /** 0: no HTTP answer (connection refused or reset); -1: no answer within REQUEST_TIMEOUT_MS (a hang). */
  status: number;
  body: unknown;
}
interface Platform {
  urls: { gateway: string; bodyMetrics: string; nutrition: string };
  secret: string;
}

const REQUEST_TIMEOUT_MS = 15_000;
const DAYS = ["2026-06-01", "2026-06-02", "2026-06-03"] as const;

/** A 2xx answer: the caller was told its request succeeded. */
export const ok = (s: { status: number }) => s.status >= 200 && s.status < 300;

/** Calls the gateway with the account's API key, or the service itself with the assertion the gateway would sign. */
const caller = (platform: Platform, account: Account, target: Target, via: Via) => {
  const base = via === "gateway" ? platform.urls.gateway : target === "body-metrics" ? platform.urls.bodyMetrics : platform.urls.nutrition;
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const auth: Record<string, string> =
      via === "gateway"
        ? { authorization: `Bearer ${account.key}` }
        : { [ASSERTION_HEADER]: await signAssertion(platform.secret, { accountId: account.accountId, email: account.email, scopes: null }) };
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // kept as text: an answer that is not JSON is itself a finding
      }
      return { status: response.status, body: parsed };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === "TimeoutError";
      return { status: timedOut ? -1 : 0, body: String(err instanceof Error && err.cause ? err.cause : err) };
    }
  };
};

/**
 * One loop per account, target and route (`via`): write, read, write, ... each `everyMs` after the previous
 * answer, until stopped. Writes carry a unique tag, so even a write that failed can be looked for afterwards.
 */
export const startLoad = (platform: Platform, loops: { account: Account; target: Target; via: Via }[], everyMs: number) => {
  const samples: Sample[] = [];
  let running = true;
  let seq = 0;
  const loop = async ({ account, target, via }: (typeof loops)[number]) => {
    const call = caller(platform, account, target, via);
    for (let i = 0; running; i++) {
      const write = i % 3 !== 1;
      const n = ++seq;
      const tag = `${target === "body-metrics" ? "w" : "f"}${n}`;
      const startedAt = Date.now();
      const answer = !write
        ? await call("GET", target === "body-metrics" ? "/api/weight?limit=5" : "/api/nutrition")
        : target === "body-metrics"
          ? await call("POST", "/api/weight", { weightKg: 70 + (n % 20) / 2, note: tag })
          : await call("POST", "/api/nutrition/items", { date: DAYS[n % DAYS.length], name: tag, kcal: 100 + (n % 50), proteinG: (n % 10) / 2 });
      samples.push({ account: account.accountId, target, via, write, ...(write ? { tag } : {}), startedAt, endedAt: Date.now(), ...answer });
      await delay(everyMs);
    }
  };
  const done = Promise.all(loops.map(loop));
  const stop = async () => {
    running = false;
    await done;
  };
  onTestFinished(stop); // a test that failed half-way leaves no loop running into the next one
  return { samples, stop };
};

/** Every tag the account can read back now, through the service directly (the gateway is not what is checked). */
const storedTags = async (platform: Platform, account: Account) => {
  const tags = new Set<string>();
  const weights = caller(platform, account, "body-metrics", "direct");
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page = await weights("GET", `/api/weight?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (page.status !== 200) throw new Error(`listing weigh-ins answered ${page.status}: ${JSON.stringify(page.body)}`);
    const { items, nextCursor } = page.body as { items: { note: string | null }[]; nextCursor: string | null };
    for (const item of items) if (item.note) tags.add(item.note);
    cursor = nextCursor;
  }
  const food = caller(platform, account, "nutrition", "direct");
  for (const date of DAYS) {
    const list = await food("GET", `/api/nutrition/items?date=${date}`);
    if (list.status !== 200) throw new Error(`listing food items answered ${list.status}: ${JSON.stringify(list.body)}`);
    for (const item of list.body as { name: string }[]) tags.add(item.name);
  }
  return tags;
};

/**
 * Acknowledged writes (2xx) that cannot be read back (must be none), and failed writes that were stored anyway
 * (allowed: the caller was told nothing, e.g. the answer was lost after the commit).
 */
export const checkWrites = async (platform: Platform, accounts: Account[], samples: Sample[]) => {
  const stored = new Set<string>();
  for (const account of accounts) for (const tag of await storedTags(platform, account)) stored.add(tag);
  const writes = samples.filter((s) => s.write && s.tag);
  const acked = writes.filter(ok);
  return {
    acked: acked.length,
    lost: acked.filter((s) => !stored.has(s.tag ?? "")),
    failedButStored: writes.filter((s) => !ok(s) && stored.has(s.tag ?? "")).length,
  };
};

/** "503 x12, 0 x1": how many requests answered each status. */
export const byStatus = (samples: Sample[]) => {
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status} x${n}`).join(", ") || "none";
};

