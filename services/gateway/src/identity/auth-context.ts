import { AsyncLocalStorage } from "node:async_hooks";

/** Where every copy of better-auth in a process keeps its shared state, its AsyncLocalStorages among it. */
const BETTER_AUTH_GLOBAL = Symbol.for("better-auth:global");

const betterAuthStorages = (): AsyncLocalStorage<unknown>[] => {
  const context = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[BETTER_AUTH_GLOBAL]?.context;
  return Object.values(context ?? {}).filter((value) => value instanceof AsyncLocalStorage);
};

let inFlight = 0;

/**
 * Runs a call into better-auth, then turns its AsyncLocalStorages off once no call is left in flight.
 *
 * better-auth keeps each call's state in AsyncLocalStorage. Before Node 24, a storage once used turns on promise
 * hooks for the whole process, for good: every promise of every request then pays for them, a quarter of the
 * gateway's CPU per request, though only sign-in and the first sight of a credential need better-auth. A
 * disabled storage turns the hooks off, and its next `run` turns them on again
 * (docs/decisions/0055-better-auth-context-only-while-it-works.md). One count per process, as the storages are.
 */
export const inAuthContext = async <T>(call: () => Promise<T>): Promise<T> => {
  inFlight += 1;
  try {
    return await call();
  } finally {
    inFlight -= 1;
    if (inFlight === 0) for (const storage of betterAuthStorages()) storage.disable();
  }
};

/** `target` with each of its methods run through `inAuthContext`; properties of the functions are kept. */
const gatedMethods = <T extends object>(target: T): T => {
  const gated = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (typeof value !== "function") return value;
      if (!gated.has(key)) {
        gated.set(key, new Proxy(value, { apply: (method, self, args) => inAuthContext(async () => Reflect.apply(method, self, args) as unknown) }));
      }
      return gated.get(key);
    },
  });
};

type BetterAuthLike = {
  handler: (request: Request) => Promise<Response>;
  api: object;
  $context: Promise<{ internalAdapter: object }>;
};

/**
 * The better-auth instance with its handler, every `api` endpoint and the internal adapter of its `$context`
 * (which the operator's key issuing uses) run through `inAuthContext`.
 */
export const withAuthContextOnlyInCalls = <A extends BetterAuthLike>(auth: A): A => {
  let context: A["$context"] | undefined;
  return {
    ...auth,
    handler: (request: Request) => inAuthContext(() => auth.handler(request)),
    api: gatedMethods(auth.api),
    // Derived when first asked for, as better-auth's own is awaited: a failed start then rejects where it is read.
    get $context() {
      context ??= auth.$context.then((resolved) => {
        const internalAdapter = gatedMethods(resolved.internalAdapter);
        return new Proxy(resolved, { get: (object, key) => (key === "internalAdapter" ? internalAdapter : (Reflect.get(object, key) as unknown)) });
      }) as A["$context"];
      return context;
    },
  };
};
