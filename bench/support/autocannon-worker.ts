// Child process of load.ts (started on the load CPU): one autocannon run, its figures as JSON on stdout.
import autocannon from "autocannon";
import type { LoadFigures, LoadSpec } from "./load.ts";

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const sets = spec.headerSets ?? [];
let turn = 0;
const result = await autocannon({
  url: spec.url,
  method: spec.method,
  connections: spec.connections,
  duration: spec.duration,
  ...(spec.headers ? { headers: spec.headers } : {}),
  ...(spec.body !== undefined ? { body: spec.body } : {}),
  ...(sets.length
    ? { requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...sets[turn++ % sets.length] } }) }] }
    : {}),
});
const figures: LoadFigures = {
  okPerSec: result["2xx"] / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  requests: result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
};
process.stdout.write(JSON.stringify(figures));
