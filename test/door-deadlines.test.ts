// How long a body may take (docs/security.md §9): a request's body must arrive whole within REQUEST_TIMEOUT_MS,
// a streamed upload (POST /api/imports) only must not stall for UPLOAD_IDLE_TIMEOUT_MS. Both at 2 s here, so a
// steady trickle of a few seconds stands for a gigabyte on a slow line.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

const DEADLINE_MS = 2_000;
let system: System;
let key: string;

beforeAll(async () => {
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { REQUEST_TIMEOUT_MS: String(DEADLINE_MS), UPLOAD_IDLE_TIMEOUT_MS: String(DEADLINE_MS) },
  });
  key = (await system.account()).key;
});
afterAll(() => system?.stop());

interface Sent {
  status: number | undefined;
  text: string;
  ms: number;
}

/**
 * Sends `head` and then each piece of the body as its own chunk, `gapMs` apart (a piece of null is a pause of
 * that long without a byte), and collects the answer until the server closes the connection.
 */
const trickle = (path: string, contentType: string, pieces: (string | null)[], gapMs: number) =>
  new Promise<Sent>((resolve) => {
    const { hostname, port } = new URL(system.url);
    const socket = net.connect(Number(port), hostname);
    const started = Date.now();
    let received = "";
    const finish = () => {
      clearInterval(timer);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]) || undefined, text: received, ms: Date.now() - started });
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
      // An answer ends the exchange: the connection is not reused.
      if (/\r\n\r\n[\s\S]*\}$/.test(received)) socket.end();
    });
    socket.on("close", finish);
    socket.on("error", finish);
    socket.write(`POST ${path} HTTP/1.1\r\nHost: fit\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`);
    let next = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      if (next === pieces.length) {
        socket.write("0\r\n\r\n");
        return clearInterval(timer);
      }
      const piece = pieces[next++];
      if (piece !== null && piece !== undefined) socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    }, gapMs);
  });

const csvLines = (days: number) =>
  ["Date,Weight\n", ...Array.from({ length: days }, (_, i) => `2024-0${1 + Math.floor(i / 28)}-${String(1 + (i % 28)).padStart(2, "0")} 07:00,${(80 + i / 10).toFixed(1)}\n`)];

describe("a streamed upload", () => {
  it("may take longer than the request deadline while its bytes keep coming, and is read whole", async () => {
    const lines = csvLines(20);
    const sent = await trickle("/api/imports?name=slow.csv", "text/csv", lines, 200);
    expect(sent.ms).toBeGreaterThan(DEADLINE_MS * 1.5);
    expect(sent.status, sent.text).toBe(202);
    const id = (JSON.parse(sent.text.slice(sent.text.indexOf("\r\n\r\n") + 4)) as { id: string }).id;
    const api = client(system.url, key);
    const done = await waitFor("the trickled import to finish", async () => {
      const { body } = await api.get(`/api/imports/${id}`);
      return body.state === "done" ? (body as { counts: { created: number } }) : undefined;
    }, 30_000);
    expect(done.counts.created).toBe(20);
  }, 30_000);

  it("is cut with a 408 when it stalls, and nothing of it is kept", async () => {
    const api = client(system.url, key);
    const before = (await api.get("/api/imports")).body.items.length;
    const sent = await trickle("/api/imports?name=stalled.csv", "text/csv", [...csvLines(3), ...Array<null>(40).fill(null)], 200);
    expect(sent.status, sent.text).toBe(408);
    expect(sent.text).toContain('{"error":"request took too long to arrive"}');
    expect(sent.ms).toBeLessThan(DEADLINE_MS * 3);
    expect((await api.get("/api/imports")).body.items).toHaveLength(before);
  }, 30_000);
});

describe("any other body", () => {
  it("is cut at the request deadline however steadily it trickles", async () => {
    const body = JSON.stringify({ weightKg: 80, note: "x".repeat(40) });
    const sent = await trickle("/api/weight", "application/json", body.match(/.{1,2}/g)!, 200);
    expect(sent.status, sent.text).toBe(408);
    expect(sent.ms).toBeLessThan(DEADLINE_MS * 2.5);
    const { items } = (await client(system.url, key).get("/api/weight")).body as { items: { source: string }[] };
    expect(items.filter((reading) => reading.source === "manual")).toEqual([]);
  }, 30_000);
});
