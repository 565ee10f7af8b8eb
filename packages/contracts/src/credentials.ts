import { z } from "zod";
import { TimestampMs, Uuid } from "./common.ts";
import { Scope } from "./scopes.ts";

/** API keys and sessions, managed by the account that owns them (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md). */
export const ApiKeyCreate = z
  .object({
    name: z
      .string({ error: "name must be a string of 1 to 100 characters" })
      .trim()
      .min(1, { error: "name must be 1 to 100 characters" })
      .max(100, { error: "name must be 1 to 100 characters" })
      .meta({ description: "Shown in the key list, 1 to 100 characters." }),
    scopes: z
      .array(Scope)
      .min(1, { error: "scopes must name at least one scope, or be omitted for full data access" })
      .transform((list) => [...new Set(list)])
      .optional()
      .meta({ description: "What the key may do; omitted: every data scope (not `keys` nor `account`). Never more than the calling credential holds." }),
    expiresInDays: z
      .number({ error: "expiresInDays must be a whole number of days" })
      .int({ error: "expiresInDays must be a whole number of days" })
      .min(1, { error: "expiresInDays must be between 1 and 3650" })
      .max(3650, { error: "expiresInDays must be between 1 and 3650" })
      .optional()
      .meta({ description: "Days until the key stops working, 1 to 3650; omitted: never." }),
  })
  .meta({ id: "ApiKeyCreate" });

export const ApiKey = z
  .object({
    id: Uuid,
    name: z.string().nullable(),
    prefix: z.string().nullable().meta({ description: "Every key starts with it (`fit_`)." }),
    start: z.string().nullable().meta({ description: "The key's first characters, to tell keys apart." }),
    scopes: z.array(Scope).nullable().meta({ description: "null: every data scope (not `keys` nor `account`)." }),
    createdAt: TimestampMs,
    lastUsedAt: TimestampMs.nullable().meta({ description: "Last use, recorded at most once a minute per key; null if never used." }),
    expiresAt: TimestampMs.nullable(),
  })
  .meta({ id: "ApiKey", description: "An API key as listed: never the key itself nor its hash." });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyCreated = ApiKey.omit({ lastUsedAt: true })
  .extend({ key: z.string().meta({ description: "The key. Shown only in this answer: only its hash is stored." }) })
  .meta({ id: "ApiKeyCreated" });

export const ApiKeyList = z.array(ApiKey).meta({ id: "ApiKeyList" });

export const SessionInfo = z
  .object({
    id: Uuid,
    createdAt: TimestampMs,
    expiresAt: TimestampMs,
    userAgent: z.string().nullable(),
    ipAddress: z.string().nullable(),
    current: z.boolean().meta({ description: "true for the session making this request." }),
  })
  .meta({ id: "SessionInfo", description: "A signed-in session of the caller's account." });
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionList = z.array(SessionInfo).meta({ id: "SessionList" });

export const RevokeOthersQuery = z.object({
  connectedApps: z
    .enum(["keep", "revoke"], { error: "connectedApps must be keep or revoke" })
    .default("keep")
    .meta({ description: "`revoke`: also end every connected app's grant (GET /api/connected-apps). Default `keep`: agents keep working." }),
});

export const RevokedCount = z
  .object({
    ok: z.literal(true),
    revoked: z.number().int().min(0).meta({ description: "Sessions signed out." }),
    connectedApps: z.number().int().min(0).meta({ description: "Connected apps whose grant ended (0 unless asked with `connectedApps=revoke`)." }),
  })
  .meta({ id: "RevokedCount", description: "How many sessions, and connected apps, were revoked." });

/** An OAuth client id as the authorization server hands them out: visible ASCII, no spaces. */
export const ClientIdParams = z.object({
  clientId: z
    .string()
    .regex(/^[\x21-\x7E]{1,255}$/, { error: "clientId must be 1 to 255 visible ASCII characters" })
    .meta({ description: "The app's OAuth client id, as listed." }),
});

export const ConnectedApp = z
  .object({
    clientId: z.string(),
    name: z.string().nullable().meta({ description: "The name it registered with (`client_name`), or null. Chosen by the app itself." }),
    scopes: z.array(z.string()).meta({ description: "What the account consented to (`offline_access`: it may refresh its tokens)." }),
    selfRegistered: z.boolean().meta({ description: "true: the app registered itself (open dynamic registration); nobody vouches for its name." }),
    redirectHosts: z.array(z.string()).meta({ description: "Where its authorizations are sent back to (the hosts of its redirect URIs)." }),
    createdAt: TimestampMs.meta({ description: "When the account first let it in." }),
    lastUsedAt: TimestampMs.nullable().meta({
      description: "When it last got tokens with a refresh token: its last authorization with `offline_access`, or its last refresh. " +
        "null when it never held a refresh token (its access tokens are not recorded).",
    }),
  })
  .meta({ id: "ConnectedApp", description: "An agent (OAuth client) the account let in." });
export type ConnectedApp = z.infer<typeof ConnectedApp>;

export const ConnectedAppList = z.object({ items: z.array(ConnectedApp) }).meta({ id: "ConnectedAppList" });
