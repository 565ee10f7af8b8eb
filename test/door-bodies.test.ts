// Bodies at the door as real clients send them (docs/security.md §9): curl's Expect: 100-continue on a long
// run's GPX, and a body over the limit that the client goes on sending after the 413 is written.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeGpx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

interface Outcome {
  status?: number;
  body?: unknown;
  error?: string;
}

const MB = 1_000_000;
const CHUNK = 64 * 1024;

/**
 * node:http as a client that does not stop to look: the whole body is written (declared, or chunked without a
 * length), and whatever came back or went wrong is the outcome. With `expectContinue` the body waits for 100.
 */
const sendWithNodeHttp = (url: string, headers: Record<string, string>, body: Buffer, options: { chunked?: boolean; expectContinue?: boolean } = {}) =>
  new Promise<Outcome>((resolve) => {
    const outcome: Outcome = {};
    const request = http.request(url, {
      method: "POST",
      headers: {
        ...headers,
        ...(options.chunked ? {} : { "content-length": String(body.length) }),
        ...(options.expectContinue ? { expect: "100-continue" } : {}),
      },
    });
    const writeAll = async () => {
      for (let offset = 0; offset < body.length && !request.destroyed; offset += CHUNK) {
        if (!request.write(body.subarray(offset, offset + CHUNK))) await new Promise((drained) => request.once("drain", drained));
      }
      request.end();
    };
    request.on("error", (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      resolve(outcome);
    });
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        outcome.status = response.statusCode;
        outcome.body = text ? (JSON.parse(text) as unknown) : undefined;
        // An error after the answer (the socket reset while the body was still going) would still show.
        setTimeout(() => resolve(outcome), 50);
      });
    });
    if (options.expectContinue) request.once("continue", () => void writeAll());
    else void writeAll();
  });

const sendWithFetch = async (url: string, headers: Record<string, string>, body: Buffer): Promise<Outcome> => {
  try {
    const response = await fetch(url, { method: "POST", headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  } catch (error) {
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    return { error: cause?.code ?? cause?.message ?? String(error) };
  }
};

describe("a body over the limit", () => {
  it("is answered 413 in the envelope to a client still sending, on every kind of route, and nothing is stored", async () => {
    const { key } = await system.account();
    const origin = new URL(system.url).origin;
    const json = { "content-type": "application/json" };
    const routes = [
      { path: "/api/weight", headers: { ...json, authorization: `Bearer ${key}` }, sizes: [5 * MB, 60 * MB] },
      { path: "/api/workouts/import", headers: { "content-type": "application/gpx+xml", authorization: `Bearer ${key}` }, sizes: [12 * MB, 60 * MB] },
      // A photo tool's call carries up to 8 MiB in base64 (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
      { path: "/mcp", headers: { ...json, accept: "application/json, text/event-stream", authorization: `Bearer ${key}` }, sizes: [12 * MB, 60 * MB] },
      { path: "/api/auth/sign-in/magic-link", headers: { ...json, origin }, sizes: [5 * MB, 60 * MB] },
    ];
    const seen: Record<string, Outcome> = {};
    for (const { path, headers, sizes } of routes) {
      for (const size of sizes) {
        const body = Buffer.alloc(size, 0x20);
        const url = `${system.url}${path}`;
        seen[`${path} ${size / MB} MB node:http`] = await sendWithNodeHttp(url, headers, body);
        seen[`${path} ${size / MB} MB node:http chunked`] = await sendWithNodeHttp(url, headers, body, { chunked: true });
        seen[`${path} ${size / MB} MB fetch`] = await sendWithFetch(url, headers, body);
      }
    }
    const tooLarge = { status: 413, body: { error: "request body is too large" } };
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((name) => [name, tooLarge])));
    const api = client(system.url, key);
    expect((await api.get("/api/weight")).body.items).toEqual([]);
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  }, 180_000);
});

describe("a body answered before it was read", () => {
  it("is drained, and the connection it leaves open answers the next request at once", async () => {
    const { key } = await system.account();
    // One connection for both requests: the first, refused for its query before its 200 KB reach a reader, says the
    // connection stays open, so the second goes on it (a streamed upload's body once stayed paused there, and the
    // second request waited for the drain's 10 s cut, then saw a reset).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (path: string, body?: Buffer) =>
        new Promise<{ status?: number; ms: number; error?: string }>((resolve) => {
          const started = performance.now();
          const request = http.request(`${system.url}${path}`, {
            agent, method: body ? "POST" : "GET",
            headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/gpx+xml", "content-length": String(body.length) } : {}) },
          });
          request.on("error", (error: NodeJS.ErrnoException) => resolve({ ms: performance.now() - started, error: error.code ?? error.message }));
          request.on("response", (response) => {
            response.resume();
            response.on("end", () => resolve({ status: response.statusCode, ms: performance.now() - started }));
          });
          request.end(body);
        });
      const refused = await send("/api/workouts/import?source=%00", Buffer.alloc(200 * 1024, 0x20));
      expect(refused.status).toBe(400);
      const next = await send("/api/weight");
      expect(next).toMatchObject({ status: 200 });
      expect(next.ms).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });
});

describe("Expect: 100-continue", () => {
  const start = new Date("2026-11-17T06:30:00Z");
  // Two and a half hours at one point a second: about 2 MB, past the 1 MB from which curl asks to continue.
  const longRun = Buffer.from(makeGpx(straightTrack({ start, points: 9_000, stepM: 3, stepS: 1, startEle: 40, hr: 150 }), { type: "running" }));

  it("is honoured at the door and never forwarded: a long run's GPX is imported", async () => {
    expect(longRun.length).toBeGreaterThan(MB);
    const { key } = await system.account();
    const headers = { "content-type": "application/gpx+xml", authorization: `Bearer ${key}` };
    const imported = await sendWithNodeHttp(`${system.url}/api/workouts/import`, headers, longRun, { expectContinue: true });
    expect(imported).toMatchObject({ status: 200, body: { created: true, workout: { activityType: "run", durationS: 8_999 } } });
    const chunked = await sendWithNodeHttp(`${system.url}/api/weight`, { "content-type": "application/json", authorization: `Bearer ${key}` }, Buffer.from('{"weightKg":80}'), {
      chunked: true,
      expectContinue: true,
    });
    expect(chunked).toMatchObject({ status: 200, body: { ok: true } });
  });

  it("works for curl --data-binary @run.gpx, which sends it for any body over 1 MB", async () => {
    const { key } = await system.account();
    const dir = await mkdtemp(join(tmpdir(), "fit-curl-"));
    try {
      const file = join(dir, "run.gpx");
      await writeFile(file, longRun);
      const { stdout } = await promisify(execFile)("curl", [
        "-sS",
        "-H", `authorization: Bearer ${key}`,
        "-H", "content-type: application/gpx+xml",
        "--data-binary", `@${file}`,
        "-w", "\n%{http_code}",
        `${system.url}/api/workouts/import`,
      ]);
      const [body, status] = stdout.split("\n");
      expect(status).toBe("200");
      expect(JSON.parse(body!)).toMatchObject({ created: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("an activity file past the reader's caps", () => {
  it("is a 4xx in the envelope, deep nesting, entities and too many points alike, and nothing is stored", async () => {
    const { key } = await system.account();
    const api = client(system.url, key);
    const gpx = (inner: string) => Buffer.from(`<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${inner}</trkseg></trk></gpx>`);
    const laughs = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${"b".repeat(i + 1)} "${`&${i === 0 ? "a" : "b".repeat(i)};`.repeat(10)}">`).join("")}]><gpx><trk><name>&bbbbbbbbb;</name></trk></gpx>`;
    const files = {
      deep: gpx(`${"<extensions>".repeat(400_000)}${"</extensions>".repeat(400_000)}`),
      laughs: Buffer.from(laughs),
      points: gpx('<trkpt lat="52.5" lon="13.4"/>'.repeat(250_001)),
    };
    expect(files.deep.length).toBeLessThan(10 * 1024 * 1024);
    expect(files.points.length).toBeLessThan(10 * 1024 * 1024);
    const answers = Object.fromEntries(
      await Promise.all(
        Object.entries(files).map(async ([name, bytes]) => [name, await api.post("/api/workouts/import", bytes, { "content-type": "application/gpx+xml" })] as const),
      ),
    );
    expect(answers["deep"]).toMatchObject({ status: 400, body: { error: "the file nests elements deeper than 32 levels" } });
    expect(answers["laughs"]).toMatchObject({ status: 400, body: { error: "the file contains a DOCTYPE or ENTITY declaration, which is not accepted" } });
    expect(answers["points"]).toMatchObject({ status: 413, body: { error: "the file is too large to read: more than 250000 track points" } });
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  }, 120_000);
});
