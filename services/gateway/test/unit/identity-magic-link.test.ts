// Magic-link sign-in, driven through better-auth's own handler as the gateway mounts it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdentity, openIdentityDb, ORIGIN, requestLink, signIn as signInAs, type IdentityDb, type TestIdentity } from "../identity-fixture.ts";

let h: IdentityDb;
let t: TestIdentity;
let n = 0;
const freshEmail = () => `link-${++n}-${Date.now()}@example.com`;
const signIn = (target: TestIdentity = t, email = freshEmail(), origin = ORIGIN) => signInAs(target, email, origin);

beforeAll(async () => {
  h = await openIdentityDb();
  t = createTestIdentity(h.store);
});
afterAll(() => h.close());

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
    const session = await h.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(caller?.credential).toEqual({ kind: "session", id: session.id, createdAt: session.createdAt.getTime() });
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

  it("retires an older unused link when a newer one is asked for", async () => {
    const email = freshEmail();
    const older = (await requestLink(t, email)).url ?? "";
    const newer = (await requestLink(t, email.toUpperCase())).url ?? "";
    const other = (await requestLink(t, freshEmail())).url ?? "";
    expect((await t.identity.handler(new Request(older))).headers.get("location")).toMatch(/error=INVALID_TOKEN/);
    expect((await t.identity.handler(new Request(newer))).headers.getSetCookie().some((c) => c.includes("session_token="))).toBe(true);
    // Someone else's link is untouched.
    expect((await t.identity.handler(new Request(other))).headers.getSetCookie().some((c) => c.includes("session_token="))).toBe(true);
  });

  it("expires: a link followed after its lifetime signs nobody in", async () => {
    const short = createTestIdentity(h.store, { magicLinkTtlSeconds: 1 });
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

  it("keeps better-auth's reservations first-writer-wins, so its lock on promoting an operator-made account holds", async () => {
    // better-auth keys a reservation by a hash of its name, not a UUID: a UUID-only id would swap it for a random one.
    const { internalAdapter } = await t.identity.auth.$context;
    const identifier = `lock-${freshEmail()}`;
    const reserve = () => internalAdapter.reserveVerificationValue({ identifier, value: "x", expiresAt: new Date(Date.now() + 60_000) });
    expect(await reserve()).toBe(true);
    expect(await reserve()).toBe(false);
  });

  it("uses a Secure cookie with the __Secure- prefix when the public URL is https", async () => {
    const origin = "https://fit.example.com";
    const secure = createTestIdentity(h.store, { baseUrl: origin, trustedOrigins: [origin] });
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
