// The session cookie on API requests, key management over HTTP, and where better-auth's log lines go.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestIdentity, openIdentityDb, ORIGIN, requestLink, signIn as signInAs, type IdentityDb, type TestIdentity } from "../identity-fixture.ts";

let h: IdentityDb;
let t: TestIdentity;
let n = 0;
const freshEmail = () => `session-${++n}-${Date.now()}@example.com`;
const signIn = (target: TestIdentity = t, email = freshEmail(), origin = ORIGIN) => signInAs(target, email, origin);

beforeAll(async () => {
  h = await openIdentityDb();
  t = createTestIdentity(h.store);
});
afterAll(() => h.close());

describe("session cookie", () => {
  it("costs one read per request and writes nothing", async () => {
    const { cookie } = await signIn();
    h.queries.reset();
    await t.identity.resolveCaller({ cookie });
    expect(h.queries.count).toBe(1);
    expect(h.queries.sql[0]).toMatch(/^\s*SELECT/i);
  });

  it.each([
    // The signature's first character: its last one may carry only base64 padding bits and decode the same.
    ["a changed signature", (c: string) => {
      const at = c.lastIndexOf(".") + 1;
      return c.slice(0, at) + (c[at] === "A" ? "B" : "A") + c.slice(at + 1);
    }],
    ["a changed token", (c: string) => c.replace("=", "=x")],
    ["a token without signature", (c: string) => c.slice(0, c.lastIndexOf("."))],
  ])("is unauthenticated with %s", async (_, tamper) => {
    const { cookie } = await signIn();
    const forged = tamper(cookie);
    expect(forged).not.toBe(cookie);
    await expect(t.identity.resolveCaller({ cookie: forged })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("stops working at once after sign-out", async () => {
    const { cookie } = await signIn();
    await expect(t.identity.resolveCaller({ cookie })).resolves.not.toBeNull();
    const out = await t.identity.handler(new Request(`${ORIGIN}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: ORIGIN } }));
    expect(out.status).toBe(200);
    await expect(t.identity.resolveCaller({ cookie })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("stops working at once when the session is revoked server-side", async () => {
    const { cookie, email } = await signIn();
    await h.prisma.session.deleteMany({ where: { user: { email } } });
    await expect(t.identity.resolveCaller({ cookie })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("is unauthenticated once the session has expired", async () => {
    const { cookie, email } = await signIn();
    await h.prisma.session.updateMany({ where: { user: { email } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(t.identity.resolveCaller({ cookie })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("key management over HTTP", () => {
  const create = (body: object, headers: Record<string, string> = {}) =>
    t.identity.handler(
      new Request(`${ORIGIN}/api/auth/api-key/create`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
        body: JSON.stringify(body),
      }),
    );

  it("refuses a client that names another account's userId, with or without a session", async () => {
    const victim = await t.identity.issueAccountKey(freshEmail());
    const before = await h.prisma.apikey.count({ where: { referenceId: victim.accountId } });
    const { cookie } = await signIn();
    expect((await create({ userId: victim.accountId })).status).toBe(401);
    expect((await create({ userId: victim.accountId }, { cookie })).status).toBe(401);
    expect(await h.prisma.apikey.count({ where: { referenceId: victim.accountId } })).toBe(before);
  });

  it("refuses scopes (permissions) from a client: they are granted server-side only", async () => {
    const { cookie } = await signIn();
    expect((await create({ permissions: { scopes: ["weight:read"] } }, { cookie })).status).toBe(400);
  });

  it("does not accept an API key as a better-auth session", async () => {
    const { key } = await t.identity.issueAccountKey(freshEmail());
    const attempts: Record<string, string>[] = [{ "x-api-key": key }, { authorization: `Bearer ${key}` }];
    for (const headers of attempts) {
      const response = await t.identity.handler(new Request(`${ORIGIN}/api/auth/get-session`, { headers }));
      expect(await response.json()).toBeNull();
      expect((await create({}, headers)).status).toBe(401);
    }
  });
});

describe("logging", () => {
  it("routes better-auth's lines into our logger, refusals below error, and prints nothing to the console", async () => {
    const lines: { level: string; msg?: string }[] = [];
    const at = (level: string) => (_obj: object, msg?: string) => void lines.push({ level, msg });
    const logged = createTestIdentity(h.store, { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } });
    const consoleSpies = (["log", "info", "warn", "error"] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    try {
      const { response } = await requestLink(logged, freshEmail(), { callbackURL: "https://evil.example/" });
      expect(response.status).toBe(403);
      await expect(logged.identity.resolveCaller({ authorization: `Bearer fit_${"b".repeat(64)}` })).rejects.toMatchObject({ code: "unauthenticated" });
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
      expect(lines.some((line) => /Invalid callbackURL/.test(line.msg ?? ""))).toBe(true);
      expect(lines.filter((line) => line.level === "error")).toEqual([]);
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });
});
