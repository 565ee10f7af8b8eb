import fc from "fast-check";
import { bodyPlans, deleteBodies, excerpt, type BodyPlan } from "./body.ts";
import { hostileQuery } from "./query.ts";
import { targets, type Target } from "./schema.ts";
import { encodeBody } from "./values.ts";

type Credential = "A" | "B" | "B-read" | "B-scopeless" | "A-session" | "C-session" | "D-session" | "ingest" | "none" | "malformed";
export type Resource = "weights" | "measurements" | "items" | "workouts" | "keys" | "sessions" | "apps" | "foods" | "barcodes" | "customFoods" | "recipes" | "imports";

/** The scopes of the `B-read` key: every read scope of the data. */
export const READ_SCOPES = ["weight:read", "measurements:read", "targets:read", "nutrition:read", "dashboard:read", "profile:read", "imports:read"];

export interface Context {
  /** Full-access keys of accounts A and B, and keys of B lacking every write scope or every scope but `coach`. */
  keys: Record<"A" | "B" | "B-read" | "B-scopeless", string>;
  /** Account A's session cookie (signed in by magic link), and the scale-ingest token. */
  sessionA: string;
  /**
   * Sessions of two more accounts: C's is the only one sent to delete its account (A's would end the run), D's the
   * only one sent to revoke all other sessions (A's would empty the pool revokeSession draws from).
   */
  sessionC: string;
  sessionD: string;
  ingestToken: string;
  /** Ids of things each account really owns, so hostile writes reach the store and not only the validator. */
  ids: Record<"A" | "B", Record<Resource, string[]>>;
  accountB: string;
  /** The gateway's own origin (trusted for cookies and magic-link callbacks). */
  origin: string;
}

export interface HostileRequest {
  target: string;
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  credential: Credential;
  /** The contract refuses this request whatever the server's state: it must answer 4xx and change nothing. */
  mustRefuse: boolean;
  labels: string[];
}

const malformedCredentials: Record<string, string>[] = [
  { authorization: "Bearer" }, { authorization: "Bearer fit_" }, { authorization: `Bearer fit_${"a".repeat(64)}` },
  { authorization: `Bearer fit_${"a".repeat(5000)}` }, { authorization: "Basic dXNlcjpwYXNz" }, { authorization: "Bearer fit_ÿÿÿÿ" },
  { authorization: "Bearer ' OR 1=1 --" }, { authorization: `Bearer fit_${"A".repeat(64)} fit_${"B".repeat(64)}` },
  { authorization: 'Digest username="x"' }, { cookie: "better-auth.session_token=garbage" },
  { cookie: `better-auth.session_token=${"a".repeat(4000)}` }, { cookie: "better-auth.session_token=a.b; better-auth.session_token=c.d" },
  { cookie: "better-auth.session_token=%00%ff" }, { cookie: "=;;=;" }, { cookie: "__Secure-better-auth.session_token=x.y" },
];

const weighted = <T>(...entries: [number, T][]) => fc.oneof(...entries.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const apiCredentials = weighted<Credential>(
  [30, "A"], [25, "B"], [8, "B-read"], [7, "B-scopeless"], [8, "A-session"], [2, "ingest"], [10, "none"], [15, "malformed"],
);
/** Operations that only a session, or only the ingest token, may call get mostly that credential. */
const onlyCredentials = { session: "A-session", "ingest-token": "ingest" } as const;
const onlyCredential = (only: Credential) =>
  weighted<Credential>([40, only], [5, "A"], [5, "B"], [3, "A-session"], [3, "ingest"], [4, "none"], [4, "malformed"]);
/** Scopes a key holds only when they are named: no key here names them, so A's session is their usual caller. */
const GRANTED_ONLY = ["keys", "account"];
const signInCredentials = weighted<Credential>([6, "none"], [2, "malformed"], [1, "A"]);

/** Operations that would spoil account A for the rest of the run go to another account's session. */
const throwaway = (session: Credential) => weighted<Credential>([40, session], [5, "A"], [5, "B"], [3, "ingest"], [4, "none"], [4, "malformed"]);
const THROWAWAY: Record<string, Credential> = { deleteAccount: "C-session", revokeOtherSessions: "D-session" };

const credentialsFor = (t: Target) => {
  if (!t.scope) return signInCredentials;
  const session = THROWAWAY[t.id];
  if (session) return throwaway(session);
  if (t.credential) return onlyCredential(onlyCredentials[t.credential]);
  return GRANTED_ONLY.includes(t.scope) ? onlyCredential("A-session") : apiCredentials;
};

/** Whether the contract refuses this credential on this operation, whatever the request holds. */
const refusesCredential = (t: Target, credential: Credential, write: boolean, origin: string | undefined, ctx: Context) => {
  if (!t.scope) return false;
  if (credential === "none" || credential === "malformed") return true;
  if (t.credential === "ingest-token" || credential === "ingest") return !(t.credential === "ingest-token" && credential === "ingest");
  if (credential.endsWith("-session")) return write && origin !== undefined && origin !== ctx.origin;
  if (t.credential === "session" || GRANTED_ONLY.includes(t.scope)) return true;
  if (credential === "B-scopeless") return t.scope !== "coach";
  if (credential === "B-read") return !READ_SCOPES.includes(t.scope);
  return false;
};

const credentialHeaders = (credential: Credential, ctx: Context, malformed: Record<string, string>): Record<string, string> => {
  switch (credential) {
    case "malformed": return malformed;
    case "none": return {};
    case "A-session": return { cookie: ctx.sessionA };
    case "C-session": return { cookie: ctx.sessionC };
    case "D-session": return { cookie: ctx.sessionD };
    case "ingest": return { authorization: `Bearer ${ctx.ingestToken}` };
    default: return { authorization: `Bearer ${ctx.keys[credential]}` };
  }
};

/** Content types: [value or "none", whether a body sent with it must be refused]. */
type ContentType = readonly [string, boolean];
const contentTypes = fc.oneof(
  { weight: 30, arbitrary: fc.constant<ContentType>(["application/json", false]) },
  { weight: 8, arbitrary: fc.constantFrom<ContentType>(
    ...["application/json; charset=utf-8", "application/json; charset=latin1", "APPLICATION/JSON", 'application/json; charset="UTF-8"',
      "application/vnd.api+json", "application/json-patch+json", "application/json, text/plain", "application/json;;;",
      "application/json; charset=utf-16"].map((value): ContentType => [value, false])) },
  { weight: 7, arbitrary: fc.constantFrom<ContentType>(
    ...["text/plain", "text/plain; charset=utf-8", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded",
      "application/xml", "none", "*/*", "application/octet-stream"].map((value): ContentType => [value, true])) },
);

const hostileIds = [
  "1", "abc", "null", "00000000-0000-0000-0000-00000000000g", "{0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c}", "%2F", "a%2Fb",
  "..%2F..%2Fweight", "%2e%2e", "..", ".", "%00", "0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c%00", "%ZZ", "%", "%E0%A4%A", "%F0%9F%98%80",
  "%ED%A0%80", "'%20OR%201=1--", "a".repeat(5000), "a".repeat(20_000), "%20", "%C0%AE%C0%AE", "0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c/extra",
];
const ids = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("own"), n: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("other"), n: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("random"), n: fc.constant(0) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("hostile"), n: fc.nat({ max: hostileIds.length - 1 }) }) },
);

const origins = (ctx: Context) => weighted<string | undefined>([7, undefined], [2, ctx.origin], [1, "https://evil.example"], [1, "null"]);
const extraHeaders = weighted<Record<string, string>>(
  [12, {}], [1, { "x-request-id": "a".repeat(5000) }], [1, { "x-request-id": "../../ÿþ' OR 1=1" }], [1, { "x-request-id": "" }],
  [1, { accept: "text/html" }], [1, { accept: "application/xml;q=1, */*;q=0" }], [1, { "accept-encoding": "gzip, br, zstd, identity;q=0" }],
);

const resources: [prefix: string, Resource][] = [
  ["/api/weight", "weights"], ["/api/measurements", "measurements"], ["/api/workouts", "workouts"], ["/api/keys", "keys"], ["/api/sessions", "sessions"],
  ["/api/connected-apps", "apps"], ["/api/foods/barcode", "barcodes"], ["/api/foods", "foods"], ["/api/custom-foods", "customFoods"], ["/api/recipes", "recipes"],
  ["/api/imports", "imports"],
];
/** Foods are the same for every account: another account's food id (or barcode) is as good as one's own. */
const SHARED: readonly Resource[] = ["foods", "barcodes"];
/** A path's one parameter: a resource's id, a connected app's client id, or a barcode. */
const PATH_PARAM = /:(id|clientId|code)\b/;
/** A path's day (`:date`, the caller's own): mostly a real one, else text no calendar has, which must be refused. */
const DATE_PARAM = /:date\b/;
const days = weighted<{ text: string; valid: boolean }>(
  [6, { text: "2026-11-20", valid: true }], [2, { text: "2026-11-21", valid: true }], [1, { text: "2026-02-30", valid: false }],
  [1, { text: "2026-1-1", valid: false }], [1, { text: "today", valid: false }], [1, { text: "..%2F..%2Fadmin", valid: false }],
);
const resourceOf = (path: string): Resource => resources.find(([prefix]) => path.startsWith(prefix))?.[1] ?? "items";

const requestFor = (t: Target, ctx: Context) => {
  const noBody = (): BodyPlan => ({ text: undefined, refused: false, labels: [] });
  return fc
    .record({
      credential: credentialsFor(t),
      malformed: fc.constantFrom(...malformedCredentials),
      id: ids,
      day: days,
      fallbackId: fc.uuid(),
      query: hostileQuery(t),
      body: t.body ? bodyPlans(t.body, ctx.accountB, t.accepts) : t.method === "DELETE" ? deleteBodies.map((p) => () => p) : fc.constant(noBody),
      contentType: contentTypes,
      origin: t.scope ? origins(ctx) : weighted<string | undefined>([6, ctx.origin], [2, undefined], [1, "https://evil.example"], [1, "null"]),
      extra: extraHeaders,
    })
    .map((plan): HostileRequest => {
      const { credential } = plan;
      const write = t.method !== "GET";
      const account = credential.startsWith("B") ? "B" : "A";
      const credentialRefused = refusesCredential(t, credential, write, plan.origin, ctx);
      let idKind = plan.id.kind;
      const hasId = PATH_PARAM.test(t.path);
      let body = plan.body(false);
      const [contentType, contentTypeRefused] = plan.contentType;
      const foreignId = idKind !== "own" && !(idKind === "other" && SHARED.includes(resourceOf(t.path)));
      const badDay = DATE_PARAM.test(t.path) && !plan.day.valid;
      let mustRefuse = credentialRefused || (hasId && foreignId) || badDay || (!!t.body && (body.refused || contentTypeRefused));
      if (!mustRefuse && write && account === "B") {
        // Account B only ever receives writes the contract refuses, so its state must be the same after the run.
        if (t.body) body = plan.body(true);
        else idKind = "random";
        mustRefuse = true;
      }
      const pool = ctx.ids[idKind === "own" ? account : account === "A" ? "B" : "A"][resourceOf(t.path)];
      // Deletes and edits draw from separate halves of a pool, so the deletes do not leave the edits only 404s.
      const half = Math.ceil(pool.length / 2);
      const owned = t.method === "DELETE" ? pool[half + (plan.id.n % (pool.length - half))] : pool[plan.id.n % half];
      const id = idKind === "hostile" ? hostileIds[plan.id.n]! : idKind === "random" ? plan.fallbackId : owned!;
      const headers: Record<string, string> = {
        ...credentialHeaders(credential, ctx, plan.malformed),
        ...(plan.origin !== undefined ? { origin: plan.origin } : {}),
        ...(body.text !== undefined && contentType !== "none" ? { "content-type": contentType } : {}),
        ...plan.extra,
      };
      const labels = [
        `cred ${credential}${credential === "malformed" ? ` ${excerpt(plan.malformed)}` : ""}`,
        ...(hasId ? [`id ${idKind}${idKind === "hostile" ? ` ${excerpt(id)}` : ""}`] : []),
        ...(badDay ? [`day ${plan.day.text}`] : []),
        ...plan.query.labels, ...body.labels,
        ...(body.text !== undefined && contentType !== "application/json" ? [`content-type ${contentType}`] : []),
        ...(plan.origin !== undefined && plan.origin !== ctx.origin ? [`origin ${plan.origin}`] : []),
        ...Object.entries(plan.extra).map(([name, value]) => `${name} ${excerpt(value)}`),
      ];
      return {
        target: t.id, method: t.method, url: t.path.replace(PATH_PARAM, id).replace(DATE_PARAM, plan.day.text) + plan.query.text, headers, credential, mustRefuse, labels,
        body: body.text === undefined ? undefined : encodeBody(body.text, contentType.includes("latin1") ? "latin1" : "utf8"),
      };
    });
};

/** Requests against every target, evenly. */
export const hostileRequests = (ctx: Context) => fc.oneof(...targets.map((t) => requestFor(t, ctx)));
