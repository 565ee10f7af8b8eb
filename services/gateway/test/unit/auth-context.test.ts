// better-auth's AsyncLocalStorages are on only while a call into it is in flight (docs/decisions/0055-…).
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inAuthContext } from "../../src/identity/auth-context.ts";
import { createTestIdentity, openIdentityDb, signIn, type IdentityDb, type TestIdentity } from "../identity-fixture.ts";

let h: IdentityDb;
let t: TestIdentity;

const storages = () => {
  const context = (globalThis as Record<symbol, { context: Record<string, unknown> }>)[Symbol.for("better-auth:global")]?.context ?? {};
  return Object.values(context).filter((value) => value instanceof AsyncLocalStorage);
};

/**
 * Sets a marker in every storage from the test's own context. A storage left on carries it across the awaits
 * that follow; a disabled one answers undefined until better-auth runs in it again (Node's documented contract).
 */
const markStorages = () => {
  for (const storage of storages()) storage.enterWith("marker");
};
const stores = () => storages().map((storage) => storage.getStore());

beforeAll(async () => {
  h = await openIdentityDb();
  t = createTestIdentity(h.store);
  // The storages exist once better-auth has run a call.
  await t.identity.auth.api.getSession({ headers: new Headers() });
});
afterAll(() => h.close());

describe("better-auth's request context", () => {
  it("is turned off when its last call settles", async () => {
    expect(storages().length).toBeGreaterThanOrEqual(2);
    markStorages();
    expect(stores().every((store) => store === "marker")).toBe(true);
    await t.identity.auth.api.getSession({ headers: new Headers() });
    expect(stores()).toEqual(storages().map(() => undefined));
  });

  it("stays on while another call is still in flight", async () => {
    markStorages();
    let finish = () => {};
    const slow = inAuthContext(() => new Promise<void>((resolve) => (finish = resolve)));
    await t.identity.auth.api.getSession({ headers: new Headers() });
    await sleep(1);
    expect(stores().every((store) => store === "marker")).toBe(true);
    finish();
    await slow;
    expect(stores()).toEqual(storages().map(() => undefined));
  });

  it("is turned off after a call that fails", async () => {
    markStorages();
    await expect(inAuthContext(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(stores()).toEqual(storages().map(() => undefined));
  });

  it("is there again for each call: sign-in, sessions and the operator's keys work after it was turned off", async () => {
    const { cookie } = await signIn(t, `context-${Date.now()}@example.com`);
    await expect(t.identity.resolveCaller({ cookie })).resolves.toMatchObject({ email: expect.stringMatching(/^context-/) });
    const issued = await t.identity.issueAccountKey(`context-key-${Date.now()}@example.com`);
    await expect(t.identity.resolveCaller({ authorization: `Bearer ${issued.key}` })).resolves.toMatchObject({ accountId: issued.accountId });
  });

  it("is turned off after calls through the handler and the internal adapter too", async () => {
    markStorages();
    const response = await t.identity.handler(new Request("http://localhost:3000/api/auth/get-session"));
    expect(response.status).toBe(200);
    expect(stores()).toEqual(storages().map(() => undefined));
    markStorages();
    const { internalAdapter } = await t.identity.auth.$context;
    await expect(internalAdapter.findUserByEmail("nobody@example.com")).resolves.toBeNull();
    expect(stores()).toEqual(storages().map(() => undefined));
  });
});
