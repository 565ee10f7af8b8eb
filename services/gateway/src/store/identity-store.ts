import { prismaAdapter } from "better-auth/adapters/prisma";
import { createOutboxSource, ping, type Database } from "@fit/db";
import { accountStore } from "./account-store.ts";
import { PrismaClient } from "./generated/client.ts";
import type { PrismaClientOptionsWithAdapter } from "./generated/internal/prismaNamespace.ts";

/** What the gateway needs of an API key row on every request. */
export interface ApiKeyRow {
  id: string;
  enabled: boolean | null;
  expiresAt: Date | null;
  remaining: number | null;
  refillAmount: number | null;
  permissions: string | null;
  lastRequest: Date | null;
  accountId: string;
  email: string;
}

/** A key as its owner lists it: never the key's hash. */
export interface ApiKeyListing {
  id: string;
  name: string | null;
  prefix: string | null;
  start: string | null;
  permissions: string | null;
  createdAt: Date;
  lastRequest: Date | null;
  expiresAt: Date | null;
}

/** An account's OAuth grants, as the connected-apps list is made from them (domain/connected-apps.ts). */
export interface ConnectedAppRows {
  clients: { clientId: string; name: string | null; selfRegistered: boolean; redirectUris: string[] }[];
  consents: { clientId: string; scopes: string[]; createdAt: Date }[];
  /** Refresh tokens neither rotated, revoked nor expired. */
  liveRefreshTokens: { clientId: string; scopes: string[]; createdAt: Date }[];
  /** The newest refresh token of each client, live or not: its last authorization or refresh. */
  lastIssues: { clientId: string; at: Date | null }[];
}

/** Which grants end, when, and which revocation rows are old enough to forget. */
export interface GrantRevocation {
  /** One client's grant; omitted: every client's. */
  clientId?: string | undefined;
  at: Date;
  /** Revocation rows older than this name only access tokens that have expired anyway. */
  forgetBefore: Date;
}

/** The `client_id` of a revocation row that ends every client's tokens. */
const ANY_CLIENT = "*";

/** The `metadata` of a key the operator issued (pnpm create-key): the proof of the account's email keeps it. */
const OPERATOR_KEY = JSON.stringify({ issuedBy: "operator" });

export interface SessionListing {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  ipAddress: string | null;
}

/** The statements that end OAuth grants (see revokeGrants), for a transaction of their caller's. */
const grantRevocation = (prisma: PrismaClient, userId: string, { clientId, at, forgetBefore }: GrantRevocation) => {
  const where = { userId, ...(clientId === undefined ? {} : { clientId }) };
  const key = { userId, clientId: clientId ?? ANY_CLIENT };
  return [
    prisma.oauthConsent.deleteMany({ where }),
    prisma.oauthAccessToken.deleteMany({ where }),
    prisma.oauthRefreshToken.deleteMany({ where }),
    prisma.oauthGrantRevocation.upsert({ where: { userId_clientId: key }, create: { ...key, revokedAt: at }, update: { revokedAt: at } }),
    prisma.oauthGrantRevocation.deleteMany({ where: { revokedAt: { lt: forgetBefore } } }),
  ];
};

/**
 * The identity schema: better-auth reads and writes it through its Prisma adapter (sign-in, sessions, keys);
 * the per-request credential check is this store's own statement. `adapter` stands in for the database's own
 * (a test counts the statements through it); the outbox relay reads `db` on a connection of its own.
 */
export const createIdentityStore = (db: Database, adapter: PrismaClientOptionsWithAdapter["adapter"] = db.adapter) => {
  const prisma = new PrismaClient({ adapter });
  return {
    /** better-auth's view of the schema. */
    authDatabase: prismaAdapter(prisma, { provider: "postgresql" }),
    /**
     * The API key behind a hash, with its account: one plain statement, because it runs on every request
     * (a model query with a relation costs about four times the CPU, measured in bench/).
     */
    async findApiKey(hash: string): Promise<ApiKeyRow | null> {
      const rows = await prisma.$queryRaw<ApiKeyRow[]>`
        SELECT k.id::text AS id, k.enabled, k.expires_at AS "expiresAt", k.remaining, k.refill_amount AS "refillAmount", k.permissions,
               k.last_request AS "lastRequest", u.id::text AS "accountId", u.email
        FROM api_key k JOIN "user" u ON u.id = k.reference_id
        WHERE k.key = ${hash}`;
      return rows[0] ?? null;
    },
    /**
     * Records a key's use at most once a minute: the condition makes a racing replica's write a no-op, and the
     * caller only asks when the row it read is older than that (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md).
     */
    async touchApiKey(id: string): Promise<void> {
      await prisma.$executeRaw`
        UPDATE api_key SET last_request = now()
        WHERE id = ${id}::uuid AND (last_request IS NULL OR last_request < now() - interval '1 minute')`;
    },
    listApiKeys: (accountId: string): Promise<ApiKeyListing[]> =>
      prisma.apikey.findMany({
        where: { referenceId: accountId },
        select: { id: true, name: true, prefix: true, start: true, permissions: true, createdAt: true, lastRequest: true, expiresAt: true },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      }),
    /** Deletes one of the account's keys; false when the account has no key by that id. */
    async deleteApiKey(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.apikey.deleteMany({ where: { id, referenceId: accountId } });
      return count > 0;
    },
    listSessions: (accountId: string, now: Date): Promise<SessionListing[]> =>
      prisma.session.findMany({
        where: { userId: accountId, expiresAt: { gt: now } },
        select: { id: true, createdAt: true, expiresAt: true, userAgent: true, ipAddress: true },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      }),
    /** Deletes one of the account's sessions; false when the account has none by that id. */
    async deleteSession(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.session.deleteMany({ where: { id, userId: accountId } });
      return count > 0;
    },
    /** Deletes every session of the account but `keepId`; how many went. */
    async deleteOtherSessions(accountId: string, keepId: string): Promise<number> {
      const { count } = await prisma.session.deleteMany({ where: { userId: accountId, id: { not: keepId } } });
      return count;
    },
    /** The account behind an email (stored lower-cased), or null. */
    async findAccountByEmail(email: string): Promise<{ id: string; email: string } | null> {
      return prisma.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true } });
    },
    /**
     * Leaves only the newest magic link of an email usable: asking for a link again retires the older ones.
     * Verification rows of other kinds hold no JSON object, hence the guard before the cast.
     */
    async retireOlderMagicLinks(email: string): Promise<void> {
      await prisma.$executeRaw`
        WITH links AS (
          SELECT id, created_at FROM verification
          WHERE lower(CASE WHEN value LIKE '{%' THEN value::jsonb ->> 'email' END) = lower(${email}))
        DELETE FROM verification WHERE id IN (
          SELECT id FROM links ORDER BY created_at DESC, id DESC OFFSET 1)`;
    },
    /**
     * Whether an OAuth access token is neither revoked (by its jti), nor its grant ended after it was issued (for
     * its client, or for every client), nor its account deleted: one statement of four key probes.
     */
    async isAccessTokenLive({ jti, accountId, clientId, issuedAt }: { jti: string; accountId: string; clientId: string; issuedAt: Date }): Promise<boolean> {
      const [row] = await prisma.$queryRaw<{ live: boolean }[]>`
        SELECT NOT EXISTS (SELECT 1 FROM oauth_revoked_token WHERE jti = ${jti})
           AND EXISTS (SELECT 1 FROM "user" WHERE id = ${accountId}::uuid)
           AND NOT EXISTS (SELECT 1 FROM oauth_grant_revocation
                           WHERE user_id = ${accountId}::uuid AND client_id IN (${clientId}, ${ANY_CLIENT}) AND revoked_at >= ${issuedAt}) AS live`;
      return row?.live === true;
    },
    /** The account's OAuth grants, of one client or all. */
    async connectedAppRows(accountId: string, clientId?: string): Promise<ConnectedAppRows> {
      const where = { userId: accountId, ...(clientId === undefined ? {} : { clientId }) };
      const [consents, liveRefreshTokens, newest] = await Promise.all([
        prisma.oauthConsent.findMany({ where, select: { clientId: true, scopes: true, createdAt: true } }),
        prisma.oauthRefreshToken.findMany({
          where: { ...where, revoked: null, expiresAt: { gt: new Date() } },
          select: { clientId: true, scopes: true, createdAt: true },
        }),
        prisma.oauthRefreshToken.groupBy({ by: ["clientId"], where, _max: { createdAt: true } }),
      ]);
      const ids = [...new Set([...consents, ...liveRefreshTokens].map((row) => row.clientId))];
      const clients = ids.length === 0 ? [] : await prisma.oauthClient.findMany({
        where: { clientId: { in: ids } },
        select: { clientId: true, name: true, userId: true, referenceId: true, redirectUris: true },
      });
      return {
        // Nobody owns a client that registered itself through open dynamic registration.
        clients: clients.map(({ userId, referenceId, ...client }) => ({ ...client, selfRegistered: userId === null && referenceId === null })),
        consents,
        liveRefreshTokens,
        lastIssues: newest.map((row) => ({ clientId: row.clientId, at: row._max.createdAt })),
      };
    },
    /** Ends OAuth grants of the account at once: consents, refresh and stored access tokens, and every JWT issued until `at`. */
    async revokeGrants(accountId: string, revocation: GrantRevocation): Promise<void> {
      await prisma.$transaction(grantRevocation(prisma, accountId, revocation));
    },
    /**
     * Everything an account with an unproven email gathered, ended as its email is proven: its sessions, the keys
     * made by a sign-in (not the operator's) and its OAuth grants, in one transaction.
     */
    async endUnprovenAccess(accountId: string, revocation: Omit<GrantRevocation, "clientId">): Promise<void> {
      await prisma.$transaction([
        prisma.session.deleteMany({ where: { userId: accountId } }),
        prisma.apikey.deleteMany({ where: { referenceId: accountId, OR: [{ metadata: null }, { metadata: { not: OPERATOR_KEY } }] } }),
        ...grantRevocation(prisma, accountId, revocation),
      ]);
    },
    /** Marks a key as the operator's (see OPERATOR_KEY). */
    async markOperatorKey(id: string): Promise<void> {
      await prisma.apikey.update({ where: { id }, data: { metadata: OPERATOR_KEY } });
    },
    /** Lists a revoked access token until it would have expired anyway, and forgets those that have. */
    async revokeAccessToken(jti: string, expiresAt: Date): Promise<void> {
      await prisma.oauthRevokedToken.upsert({ where: { jti }, create: { jti, expiresAt }, update: {} });
      await prisma.oauthRevokedToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    },
    account: accountStore(prisma),
    /** Carries `identity.account.deleted` to the bus (buildService starts its relay). */
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
  };
};
export type IdentityStore = ReturnType<typeof createIdentityStore>;
