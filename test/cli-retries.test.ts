import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { operations } from "@fit/contracts";
import { call } from "../apps/cli/src/client.ts";

/*
 * The command-line client's retries (docs/decisions/0062-idempotency-keys.md): every creating call sends a fresh
 * Idempotency-Key and resends that same key when the server answers 503 or cannot be reached, so a write whose
 * answer was lost is not stored twice. A plain HTTP server stands in for a gateway whose service is restarting.
 */

const server = async (answers: number[]) => {
  const seen: IncomingHttpHeaders[] = [];
  const http = createServer((request, response) => {
    seen.push(request.headers);
    const status = answers[seen.length - 1] ?? 200;
    request.resume();
    request.on("end", () => {
      response.writeHead(status, { "content-type": "application/json", ...(status === 503 ? { "retry-after": "0" } : {}) });
      response.end(status === 200 ? JSON.stringify({ ok: true, id: "3f0c8a43-8f5e-4a53-9a53-4a9f0d6f1b11" }) : JSON.stringify({ error: "a service is unavailable" }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, seen };
};

describe("the CLI's creating calls", () => {
  it("resend the same Idempotency-Key on a 503 until the write answers, and use a new key for the next write", async () => {
    const { url, seen } = await server([503, 503, 200, 200]);
    const connection = { url, key: "fit_test" };
    const first = await call(connection, operations.logWeight, { body: { weightKg: 80 } });
    expect(first.id).toBe("3f0c8a43-8f5e-4a53-9a53-4a9f0d6f1b11");
    await call(connection, operations.logWeight, { body: { weightKg: 81 } });
    const keys = seen.map((headers) => headers["idempotency-key"]);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys.slice(0, 3), "one write, one key, on every attempt").toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3], "the next write has a key of its own").not.toBe(keys[0]);
  });

  it("never retry a write that takes no key", async () => {
    const { url, seen } = await server([503]);
    await expect(call({ url, key: "fit_test" }, operations.editWeightNote, { params: { id: "3f0c8a43-8f5e-4a53-9a53-4a9f0d6f1b11" }, body: { note: null } })).rejects.toThrow(
      /unavailable/,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!["idempotency-key"]).toBeUndefined();
  });
});
