// Magic-link sign-in and the session cookie, driven through better-auth's own handler as the gateway mounts it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestIdentity, openIdentityDb, type IdentityDb } from "../identity-fixture.ts";

const ORIGIN = "http://localhost:3000";
let h: IdentityDb;
let t: ReturnType<typeof createTestIdentity>;
let n = 0;
const freshEmail = () => `session-${++n}-${Date.now()}@example.com`;

beforeAll(async () => {
  h = await openIdentityDb();
  t = createTestIdentity(h.prisma);
});
afterAll(() => h.close());

type T = ReturnType<typeof createTestIdentity>;

async function requestLink(target: T, email: string, body: Record<string, string> = { callbackURL: "/" }, origin = ORIGIN) {
  const sent = target.mails.length;
  const response = await target.identity.handler(
    new Request(`${origin}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, ...body }),
    }),
  );
  return { response, url: target.mails.length > sent ? target.mails.at(-1)?.url : undefined };
}

async function signIn(target: T = t, email = freshEmail(), origin = ORIGIN) {
  const { url } = await requestLink(target, email, { callbackURL: "/" }, origin);
  if (!url) throw new Error("no magic link was sent");
  const response = await target.identity.handler(new Request(url));
  const setCookie = response.headers.getSetCookie().find((c) => c.includes("session_token=")) ?? "";
  return { response, url, setCookie, cookie: setCookie.split(";")[0] ?? "", email };
}

describe("magic link", () => {
  it("signs in with an HttpOnly, SameSite=Lax, Path=/ session cookie on http, redirecting to the callback", async () => {
    const { response, setCookie } = await signIn();
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(setCookie).toMatch(/^better-auth\.session_token=[^;]+/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toMatch(/; Secure/);
  });

  it("gives a cookie that resolves to the signed-in account, created verified with a UUID id", async () => {
    const { cookie, email } = await signIn();
    const caller = await t.identity.resolveCaller({ cookie });
    expect(caller).toMatchObject({ email, scopes: null });
    const user = await h.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(caller?.accountId).toBe(user.id);
    expect(user.emailVerified).toBe(true);
  });

  it("signs into the account an operator issued a key for, whatever the email's case", async () => {
    const email = freshEmail();
    const issued = await t.identity.issueAccountKey(email);
    const { cookie } = await signIn(t, email.toUpperCase());
    expect((await t.identity.resolveCaller({ cookie }))?.accountId).toBe(issued.accountId);
    await expect(t.identity.resolveCaller({ authorization: `Bearer ${issued.key}` })).resolves.not.toBeNull();
  });

  it("stores the link's token only as a hash", async () => {
    const { url } = await requestLink(t, freshEmail());
    const token = new URL(url ?? "").searchParams.get("token") ?? "";
    expect(token).toHaveLength(32);
    const rows = await h.prisma.verification.findMany();
    expect(rows.some((row) => row.identifier === token || row.value.includes(token))).toBe(false);
  });

  it("works once: the replayed link signs nobody in", async () => {
    const { url } = await signIn();
    const replay = await t.identity.handler(new Request(url));
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toMatch(/error=INVALID_TOKEN/);
    expect(replay.headers.getSetCookie().some((c) => /session_token=[^;]+/.test(c) && !/Max-Age=0/.test(c))).toBe(false);
  });

  it("expires: a link followed after its lifetime signs nobody in", async () => {
    const short = createTestIdentity(h.prisma, { magicLinkTtlSeconds: 1 });
    const { url } = await requestLink(short, freshEmail());
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const late = await short.identity.handler(new Request(url ?? ""));
    expect(late.headers.get("location")).toMatch(/error=INVALID_TOKEN/);
    expect(late.headers.getSetCookie().some((c) => /session_token=[^;]+/.test(c) && !/Max-Age=0/.test(c))).toBe(false);
  });

  it("refuses an untrusted callbackURL when the link is requested, and sends nothing", async () => {
    for (const field of ["callbackURL", "errorCallbackURL", "newUserCallbackURL"]) {
      const { response, url } = await requestLink(t, freshEmail(), { [field]: "https://evil.example/steal" });
      expect(response.status).toBe(403);
      expect(url).toBeUndefined();
    }
  });

  it("refuses a link whose callbackURL was swapped for an untrusted one, without consuming it", async () => {
    const { url } = await requestLink(t, freshEmail());
    const tampered = new URL(url ?? "");
    tampered.searchParams.set("callbackURL", "https://evil.example/steal");
    const refused = await t.identity.handler(new Request(tampered));
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await t.identity.handler(new Request(url ?? ""))).headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("uses a Secure cookie with the __Secure- prefix when the public URL is https", async () => {
    const origin = "https://fit.example.com";
    const secure = createTestIdentity(h.prisma, { baseUrl: origin, trustedOrigins: [origin] });
    const { setCookie, cookie, email } = await signIn(secure, freshEmail(), origin);
    expect(setCookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect((await secure.identity.resolveCaller({ cookie }))?.email).toBe(email);
    // The plain-http name means nothing to an https deployment.
    await expect(secure.identity.resolveCaller({ cookie: cookie.replace("__Secure-", "") })).resolves.toBeNull();
  });
});

describe("session cookie", () => {
  it("costs one read per request and writes nothing", async () => {
    const { cookie } = await signIn();
    h.queries.reset();
    await t.identity.resolveCaller({ cookie });
    expect(h.queries.count).toBe(1);
    expect(h.queries.sql[0]).toMatch(/^\s*SELECT/i);
  });

  it.each([
    ["a changed signature", (c: string) => c.replace(/.(%3D)?$/, (m) => (m.startsWith("A") ? "B" : "A") + m.slice(1))],
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
    for (const headers of [{ "x-api-key": key }, { authorization: `Bearer ${key}` }]) {
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
    const logged = createTestIdentity(h.prisma, { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } });
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
