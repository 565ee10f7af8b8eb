// Stand-in for the OpenTelemetry Collector (contrib) where no registry is reachable and no collector build can be
// had (neither Debian nor the npm registry ships one). It does what infra/otel/collector.yaml asks of the real
// one and nothing more: OTLP/HTTP traces in JSON on :4318, each export appended as one line to /data/traces.jsonl,
// the file exporter's format (one ExportTraceServiceRequest per line). Other signals and protobuf are refused.
import { appendFile, mkdir } from "node:fs/promises";
import http from "node:http";
import { gunzipSync } from "node:zlib";

const FILE = "/data/traces.jsonl";
await mkdir("/data", { recursive: true });

const reply = (response, status, body) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
};

const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/") return reply(response, 200, { status: "ok" });
  if (request.method !== "POST" || request.url !== "/v1/traces") return reply(response, 404, { message: "only POST /v1/traces" });
  if (!request.headers["content-type"]?.startsWith("application/json")) return reply(response, 415, { message: "JSON only" });
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      const raw = Buffer.concat(chunks);
      const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      await appendFile(FILE, `${JSON.stringify(JSON.parse(body.toString("utf8")))}\n`);
      reply(response, 200, {});
    } catch (error) {
      reply(response, 400, { message: String(error) });
    }
  });
});
server.listen(4318, "0.0.0.0", () => console.log(`OTLP/HTTP receiver on :4318, traces to ${FILE}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
