// The credential cache: what it holds, for how long, what it refuses without a read, and when it holds nothing
// (docs/decisions/0027-credential-cache.md). Over the identity's real store (PGlite) and the in-process bus.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@fit/contracts";
import { createInProcessBus } from "@fit/bus";
import type { AuthenticatedCaller } from "../../src/identity/credential.ts";
import { createCredentialCache, type ResolvedCredential } from "../../src/identity/credential-cache.ts";
import { startRevocations } from "../../src/identity/revocations.ts";
import { createTestIdentity, openIdentityDb, type IdentityDb } from "../identity-fixture.ts";

const T0 = 1_800_000_000_000;
const callerOf = (id: string, accountId = "account-1"): AuthenticatedCaller => ({
  accountId, email: "a@example.com", scopes: null, credential: { kind: "api_key", id, expiresAt: null },
});
const expired = () => new AppError("unauthenticated", "expired");

/** A loader that counts its reads. */
const loader = (resolved: ResolvedCredential) => {
  const load = () => {
    load.reads++;
    return Promise.resolve(resolved);
  };
  load.reads = 0;
  return load;
};

describe("createCredentialCache", () => {
  const trustedCache = (options = { maxEntries: 100, ttlMs: 30_000 }) => {
    const cache = createCredentialCache(options);
    cache.setTrusted(true);
    return cache;
  };

  it("reads a credential once within its time to live, and again after", async () => {
    const cache = trustedCache();
    const load = loader({ caller: callerOf("k1"), expiresAt: null });
    expect(await cache.resolve("d1", load, expired, T0)).toEqual(callerOf("k1"));
    expect(await cache.resolve("d1", load, expired, T0 + 29_999)).toEqual(callerOf("k1"));
    expect(load.reads).toBe(1);
    await cache.resolve("d1", load, expired, T0 + 30_000);
    expect(load.reads).toBe(2);
  });

  it("refuses a held credential once its own expiry has passed, without reading it", async () => {
    const cache = trustedCache();
    const load = loader({ caller: callerOf("k1"), expiresAt: T0 + 1_000 });
    await cache.resolve("d1", load, expired, T0);
    await expect(cache.resolve("d1", load, expired, T0 + 1_000)).rejects.toThrow("expired");
    expect(load.reads).toBe(1);
  });

  it("holds at most maxEntries, dropping the oldest", async () => {
    const cache = trustedCache({ maxEntries: 2, ttlMs: 30_000 });
    const loads = ["a", "b", "c"].map((id) => loader({ caller: callerOf(id), expiresAt: null }));
    for (const [i, load] of loads.entries()) await cache.resolve(`d${i}`, load, expired, T0);
    expect(cache.size()).toBe(2);
    await cache.resolve("d0", loads[0]!, expired, T0);
    expect(loads[0]!.reads).toBe(2);
    await cache.resolve("d2", loads[2]!, expired, T0);
    expect(loads[2]!.reads).toBe(1);
  });

  it("drops a credential by id, or all of an account's", async () => {
    const cache = trustedCache();
    const loads = [loader({ caller: callerOf("k1"), expiresAt: null }), loader({ caller: callerOf("k2"), expiresAt: null }),
      loader({ caller: callerOf("k3", "account-2"), expiresAt: null })];
    const resolveAll = () => Promise.all(loads.map((load, i) => cache.resolve(`d${i}`, load, expired, T0)));
    await resolveAll();
    cache.invalidate({ credentialId: "k1" });
    await resolveAll();
    expect(loads.map((load) => load.reads)).toEqual([2, 1, 1]);
    cache.invalidate({ accountId: "account-1" });
    await resolveAll();
    expect(loads.map((load) => load.reads)).toEqual([3, 2, 1]);
  });

  it("keeps no read that an invalidation overtook: it may predate the revocation", async () => {
    const cache = trustedCache();
    let release: () => void = () => undefined;
    const slow = () => new Promise<ResolvedCredential>((resolve) => {
      release = () => resolve({ caller: callerOf("k1"), expiresAt: null });
    });
    const pending = cache.resolve("d1", slow, expired, T0);
    cache.invalidate({ credentialId: "k1" });
    release();
    await pending;
    const load = loader({ caller: callerOf("k1"), expiresAt: null });
    await cache.resolve("d1", load, expired, T0);
    expect(load.reads).toBe(1);
  });

  it("holds nothing until trusted, and forgets everything when trust is lost", async () => {
    const cache = createCredentialCache({ maxEntries: 100, ttlMs: 30_000 });
    const load = loader({ caller: callerOf("k1"), expiresAt: null });
    await cache.resolve("d1", load, expired, T0);
    await cache.resolve("d1", load, expired, T0);
    expect(load.reads).toBe(2);
    cache.setTrusted(true);
    await cache.resolve("d1", load, expired, T0);
    await cache.resolve("d1", load, expired, T0);
    expect(load.reads).toBe(3);
    cache.setTrusted(false);
    expect(cache.size()).toBe(0);
    await cache.resolve("d1", load, expired, T0);
    expect(load.reads).toBe(4);
  });
});

describe("an identity with the credential cache", () => {
  let h: IdentityDb;
  beforeAll(async () => {
    h = await openIdentityDb();
  });
  afterAll(() => h.close());

  it("resolves a held API key without a statement, and a revoked one with one, on every identity of the bus", async () => {
    const bus = createInProcessBus({ logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const identities = await Promise.all([0, 1].map(async () => {
      const cache = createCredentialCache({ maxEntries: 100, ttlMs: 30_000 });
      const { revocations } = await startRevocations({ bus, cache, logger: { debug() {}, info() {}, warn() {}, error() {} } });
      return createTestIdentity(h.store, { credentials: { cache, revocations } }).identity;
    }));
    const [one, two] = identities as [typeof identities[0], typeof identities[0]];
    const issued = await one.issueAccountKey(`cache-${Date.now()}@example.com`);
    const keyId = (await h.store.listApiKeys(issued.accountId))[0]!.id;
    const headers = { authorization: `Bearer ${issued.key}` };
    await one.resolveCaller(headers);
    await two.resolveCaller(headers);
    h.queries.reset();
    expect((await one.resolveCaller(headers))?.accountId).toBe(issued.accountId);
    expect((await two.resolveCaller(headers))?.accountId).toBe(issued.accountId);
    expect(h.queries.count).toBe(0);

    await h.store.deleteApiKey(issued.accountId, keyId);
    await one.revoked({ credentialId: keyId });
    await expect(two.resolveCaller(headers)).rejects.toThrow(/not valid/);
    await expect(one.resolveCaller(headers)).rejects.toThrow(/not valid/);
    await bus.close();
  });
});
