import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError, operations } from "@fit/contracts";
import { verifyAssertion, type Caller } from "@fit/service-kit";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authorize, identify } from "../../src/auth/authenticate.ts";
import { createOperationIndex, prefixesByService } from "../../src/auth/operation-index.ts";

const caller: Caller = { accountId: randomUUID(), email: "a@example.com", scopes: null };
const secret = "s".repeat(40);
const fakeRequest = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, headers, caller: undefined, assertion: undefined }) as unknown as FastifyRequest;
const fakeReply = () => {
  const headers: Record<string, string> = {};
  return { headers, reply: { header: (k: string, v: string) => ((headers[k] = v), undefined) } as unknown as FastifyReply };
};
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (e: unknown) => (e instanceof AppError ? e.code : String(e)));

describe("operation index", () => {
  const find = createOperationIndex();
  it("finds an operation by method and concrete path, ignoring the query", () => {
    expect(find("PATCH", `/api/weight/${randomUUID()}?x=1`)).toBe(operations.editWeightNote);
    expect(find("GET", "/api/nutrition")).toBe(operations.listDailyTotals);
  });
  it("finds nothing for other methods or deeper paths", () => {
    expect(find("PUT", "/api/weight")).toBeUndefined();
    expect(find("PATCH", "/api/weight/a/b")).toBeUndefined();
  });
  it("derives each service's prefixes from the contracts", () => {
    expect(prefixesByService().get("body-metrics")).toEqual(["/api/weight", "/api/measurements", "/api/targets"]);
  });
});

describe("identify", () => {
  const resolver = (result: Caller | null) => ({ resolveCaller: async () => result });
  it("refuses a caller without credentials with 401", async () => {
    const hook = identify({ identity: resolver(null), trustedOrigins: [] });
    expect(await codeOf(hook(fakeRequest("GET", "/api/weight")))).toBe("unauthenticated");
  });
  it("refuses a cookie-authenticated write from an untrusted origin, but not a bearer one", async () => {
    const hook = identify({ identity: resolver(caller), trustedOrigins: ["https://app.example"] });
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://evil.example", cookie: "x" })))).toBe("forbidden");
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://app.example", cookie: "x" })))).toBe("ok");
    expect(await codeOf(hook(fakeRequest("GET", "/api/weight", { origin: "https://evil.example", cookie: "x" })))).toBe("ok");
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://evil.example", authorization: "Bearer k" })))).toBe("ok");
  });
});

describe("authorize", () => {
  const hook = authorize({ assertionSecret: secret, findOperation: createOperationIndex() });
  it("signs an assertion naming the caller for an allowed operation", async () => {
    const request = Object.assign(fakeRequest("POST", "/api/weight"), { caller });
    await hook(request, fakeReply().reply);
    expect(await verifyAssertion(secret, request.assertion)).toEqual(caller);
  });
  it("refuses a missing scope with 403 and names it in WWW-Authenticate", async () => {
    const { reply, headers } = fakeReply();
    const request = Object.assign(fakeRequest("POST", "/api/weight"), { caller: { ...caller, scopes: ["weight:read"] } });
    expect(await codeOf(hook(request, reply))).toBe("forbidden");
    expect(headers["www-authenticate"]).toBe('Bearer error="insufficient_scope", scope="weight:write"');
  });
  it("answers 404 for anything not in the contracts", async () => {
    const request = Object.assign(fakeRequest("DELETE", "/api/targets"), { caller });
    expect(await codeOf(hook(request, fakeReply().reply))).toBe("not_found");
  });
});
