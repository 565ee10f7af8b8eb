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

export const RevokedCount = z
  .object({ ok: z.literal(true), revoked: z.number().int().min(0) })
  .meta({ id: "RevokedCount", description: "How many sessions were revoked." });
