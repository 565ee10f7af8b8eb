// API keys: issuing, storage, and resolving `Authorization: Bearer <key>` to a Caller.
import { createHash, randomBytes } from "node:crypto";
import { defaultKeyHasher } from "@better-auth/api-key";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@fit/contracts";
import { hashApiKey } from "../../src/identity/api-key-credential.ts";
import { createTestIdentity, openIdentityDb, type IdentityDb } from "../identity-fixture.ts";

let h: IdentityDb;
let identity: ReturnType<typeof createTestIdentity>["identity"];
let n = 0;
const freshEmail = () => `keys-${++n}-${Date.now()}@example.com`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  h = await openIdentityDb();
  identity = createTestIdentity(h.store).identity;
});
afterAll(() => h.close());

/** Asserts that `attempt` fails with AppError("unauthenticated") whose message says `why`. */
async function expectUnauthenticated(attempt: Promise<unknown>, why: RegExp) {
  const error = await attempt.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("unauthenticated");
  expect((error as AppError).message).toMatch(why);
}

describe("issueAccountKey", () => {
  it("creates the account once, with a UUID id and the email lower-cased, and a new key on every call", async () => {
    const email = freshEmail();
    const first = await identity.issueAccountKey(`  ${email.toUpperCase()} `);
    const second = await identity.issueAccountKey(email, { name: "laptop" });
    expect(first).toMatchObject({ email, created: true });
    expect(second).toMatchObject({ email, created: false, accountId: first.accountId });
    expect(first.accountId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.key).not.toBe(first.key);
    expect(await h.prisma.user.count({ where: { email } })).toBe(1);
    expect(await h.prisma.apikey.count({ where: { referenceId: first.accountId } })).toBe(2);
  });

  it("makes one account when the same new email is issued keys concurrently", async () => {
    const email = freshEmail();
    const results = await Promise.all([1, 2, 3].map(() => identity.issueAccountKey(email)));
    expect(new Set(results.map((r) => r.accountId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it("stores only the key's hash: the raw key appears in no column", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail());
    const row = await h.prisma.apikey.findFirstOrThrow({ where: { referenceId: accountId } });
    expect(key.startsWith("fit_")).toBe(true);
    expect(row.key).toBe(createHash("sha256").update(key).digest("base64url"));
    expect(Object.values(row).some((value) => typeof value === "string" && value.includes(key.slice(4)))).toBe(false);
    expect(row.start).toBe(key.slice(0, 6));
  });

  it("refuses unknown scopes, an empty scope list and a too-short expiry", async () => {
    await expect(identity.issueAccountKey(freshEmail(), { scopes: ["weight:delete"] })).rejects.toMatchObject({ code: "validation" });
    await expect(identity.issueAccountKey(freshEmail(), { scopes: [] })).rejects.toMatchObject({ code: "validation" });
    await expect(identity.issueAccountKey(freshEmail(), { expiresInSeconds: 60 })).rejects.toMatchObject({ code: "validation" });
    await expect(identity.issueAccountKey("not-an-email")).rejects.toMatchObject({ code: "validation" });
  });
});

describe("resolveCaller with an API key", () => {
  it("resolves a key to its account with full access (scopes null)", async () => {
    const issued = await identity.issueAccountKey(freshEmail());
    const row = await h.prisma.apikey.findFirstOrThrow({ where: { referenceId: issued.accountId } });
    await expect(identity.resolveCaller(bearer(issued.key))).resolves.toEqual({
      accountId: issued.accountId, email: issued.email, scopes: null, credential: { kind: "api_key", id: row.id, expiresAt: null },
    });
  });

  it("gives a scoped key exactly its scopes", async () => {
    const issued = await identity.issueAccountKey(freshEmail(), { scopes: ["weight:read", "dashboard:read"] });
    const caller = await identity.resolveCaller(bearer(issued.key));
    expect(caller?.scopes).toEqual(["weight:read", "dashboard:read"]);
    const row = await h.prisma.apikey.findFirstOrThrow({ where: { referenceId: issued.accountId } });
    expect(JSON.parse(row.permissions ?? "null")).toEqual({ scopes: ["weight:read", "dashboard:read"] });
  });

  it("costs one read, and writes only its last use, at most once a minute", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail());
    const before = await h.prisma.apikey.findFirstOrThrow({ where: { referenceId: accountId } });
    h.queries.reset();
    await identity.resolveCaller(bearer(key));
    await identity.resolveCaller(bearer(key));
    await identity.resolveCaller(bearer(key));
    expect(h.queries.count).toBe(4);
    expect(h.queries.sql.filter((sql) => !/^\s*SELECT/i.test(sql))).toEqual([expect.stringMatching(/^\s*UPDATE api_key SET last_request/)]);
    const after = await h.prisma.apikey.findFirstOrThrow({ where: { referenceId: accountId } });
    expect(after.lastRequest).not.toBeNull();
    expect({ ...after, lastRequest: null }).toEqual(before);
  });

  it("refuses a revoked (deleted) key", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail());
    await h.prisma.apikey.deleteMany({ where: { referenceId: accountId } });
    await expectUnauthenticated(identity.resolveCaller(bearer(key)), /not valid/);
  });

  it("refuses an expired key", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail(), { expiresInSeconds: 86_400 });
    await expect(identity.resolveCaller(bearer(key))).resolves.not.toBeNull();
    await h.prisma.apikey.updateMany({ where: { referenceId: accountId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectUnauthenticated(identity.resolveCaller(bearer(key)), /expired/);
  });

  it("refuses a disabled key", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail());
    await h.prisma.apikey.updateMany({ where: { referenceId: accountId }, data: { enabled: false } });
    await expectUnauthenticated(identity.resolveCaller(bearer(key)), /disabled/);
  });

  it("fails closed when a key's stored scopes cannot be read", async () => {
    const { key, accountId } = await identity.issueAccountKey(freshEmail(), { scopes: ["coach"] });
    await h.prisma.apikey.updateMany({ where: { referenceId: accountId }, data: { permissions: '{"scopes":"coach"}' } });
    await expectUnauthenticated(identity.resolveCaller(bearer(key)), /unreadable scopes/);
  });

  it("refuses a well-formed key that was never issued, looking it up once however often it is sent", async () => {
    const unknown = `fit_${"b".repeat(64)}`;
    h.queries.reset();
    await expectUnauthenticated(identity.resolveCaller(bearer(unknown)), /not valid/);
    expect(h.queries.count).toBe(1);
    for (let i = 0; i < 3; i++) await expectUnauthenticated(identity.resolveCaller(bearer(unknown)), /not valid/);
    expect(h.queries.count).toBe(1);
  });

  it.each([
    ["an empty header", ""],
    ["a bare scheme", "Bearer"],
    ["another scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["a truncated key", "Bearer fit_abc"],
    ["two tokens", `Bearer fit_${"a".repeat(64)} extra`],
  ])("refuses %s as malformed without querying the database", async (_, authorization) => {
    h.queries.reset();
    await expectUnauthenticated(identity.resolveCaller({ authorization }), /malformed/);
    expect(h.queries.count).toBe(0);
  });

  it("refuses a key without the prefix as neither a key nor an access token, without querying the database", async () => {
    h.queries.reset();
    await expectUnauthenticated(identity.resolveCaller({ authorization: `Bearer ${"a".repeat(68)}` }), /^bearer token is neither an API key \(fit_…\) nor an access token/);
    expect(h.queries.count).toBe(0);
  });

  it("uses the bearer key, not the cookie, when a request sends both", async () => {
    const issued = await identity.issueAccountKey(freshEmail());
    const caller = await identity.resolveCaller({ ...bearer(issued.key), cookie: "better-auth.session_token=forged.sig" });
    expect(caller?.accountId).toBe(issued.accountId);
  });
});

describe("hashApiKey", () => {
  it("is the plugin's own key hash, so keys it issued are found", async () => {
    const keys = ["fit_" + "a".repeat(64), "", "ünïcödé 🔑", ...Array.from({ length: 50 }, () => randomBytes(48).toString("base64"))];
    for (const key of keys) expect(hashApiKey(key), key).toBe(await defaultKeyHasher(key));
  });
});

describe("resolveCaller without credentials", () => {
  it("answers null when neither header is present", async () => {
    await expect(identity.resolveCaller({})).resolves.toBeNull();
  });

  it("answers null for cookies that are not the session cookie", async () => {
    await expect(identity.resolveCaller({ cookie: "theme=dark; other=1" })).resolves.toBeNull();
  });
});
