// Child process of load.ts (started on the load CPU), timing each request itself with performance.now(), its
// figures as JSON on stdout. Two shapes:
// - steady (`ratePerSec`): requests at evenly spaced moments, whatever the answers take (an open loop: a slow
//   answer delays no later request). autocannon's own rate limit sends each second's requests in a burst at its
//   start, which measures the burst, not the server. The warm-up (`warmupSeconds`) runs in this process at the
//   same rate and is not counted, so the measured requests find the connections it opened: a fresh client
//   opening a connection for each request in flight at once measured its own ramp, up to seconds. It holds at
//   most `connections` connections, as autocannon does: a client without a cap opened one for every request in
//   flight during any stall (900 and more), and each new one cost the gateway an accept and a parser just when
//   it was behind, which turned a 100 ms stall into a p99 twice as long.
// - sequential: one request after another on one connection, latencies kept to 0.01 ms (autocannon rounds to
//   whole ms, too coarse for what a single request costs).
import { Agent, fetch } from "undici";
import type { LoadFigures, LoadSpec } from "./load.ts";
import { percentile } from "./stats.ts";

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const latencies: number[] = [];
const outcome = { requests: 0, errors: 0, timeouts: 0, non2xx: 0, ok: 0 };
const dispatcher = new Agent({ connections: spec.connections });

/** One request, its body read; a warm-up's (not `counted`) leaves no figure. */
const send = async (counted: boolean) => {
  const started = performance.now();
  const answered = fetch(spec.url, {
    method: spec.method,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    signal: AbortSignal.timeout(10_000),
    dispatcher,
  }).then(async (res) => (await res.arrayBuffer(), res));
  if (!counted) return void (await answered.catch(() => undefined));
  outcome.requests++;
  try {
    const res = await answered;
    if (res.ok) {
      outcome.ok++;
      latencies.push(performance.now() - started);
    } else outcome.non2xx++;
  } catch (error) {
    if ((error as Error).name === "TimeoutError") outcome.timeouts++;
    else outcome.errors++;
  }
};

const steady = async (ratePerSec: number, seconds: number, counted: boolean) => {
  const intervalMs = 1000 / ratePerSec;
  const total = Math.round(ratePerSec * seconds);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < total; ) {
    // Every request whose moment has come goes now; then sleep until the next one's.
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    for (; sent < due; sent++) inFlight.push(send(counted));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * intervalMs - performance.now())));
  }
  await Promise.all(inFlight);
};

const sequential = async () => {
  const end = performance.now() + spec.duration * 1000;
  while (performance.now() < end) await send(true);
};

if (spec.ratePerSec !== undefined) {
  if (spec.warmupSeconds) await steady(spec.ratePerSec, spec.warmupSeconds, false);
  await steady(spec.ratePerSec, spec.duration, true);
} else await sequential();

// Whole milliseconds at a steady rate, as autocannon reports them; hundredths one request at a time.
const places = spec.ratePerSec === undefined ? 100 : 1;
const figures: LoadFigures = {
  okPerSec: outcome.ok / spec.duration,
  p50: Math.round(percentile(latencies, 50) * places) / places,
  p99: Math.round(percentile(latencies, 99) * places) / places,
  requests: outcome.requests,
  errors: outcome.errors,
  timeouts: outcome.timeouts,
  non2xx: outcome.non2xx,
  ...(spec.keepLatencies ? { latencies: latencies.map((ms) => Math.round(ms * 10) / 10) } : {}),
};
process.stdout.write(JSON.stringify(figures));
