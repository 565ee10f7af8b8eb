// The better-auth instance: magic-link and identity-provider sign-in, session cookies, API keys and the OAuth 2.1
// authorization server for agents, stored through Prisma.
import { randomUUID } from "node:crypto";
import { apiKey } from "@better-auth/api-key";
import { oauthProvider } from "@better-auth/oauth-provider";
import { betterAuth } from "better-auth";
import { jwt } from "better-auth/plugins/jwt";
import { magicLink } from "better-auth/plugins/magic-link";
import { oauthScopes } from "@fit/contracts";
import type { IdentityStore } from "../store/identity-store.ts";
import { withAuthContextOnlyInCalls } from "./auth-context.ts";
import { apiErrorLogger, betterAuthLogger, type IdentityLogger } from "./logger.ts";
import type { MagicLinkMailer } from "./mailer.ts";
import { oidcPlugins, socialProviders, type IdentityProviders } from "./providers.ts";

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = "fit_";

/** Where the authorization server sends a browser that must sign in, or consent (routes/oauth-pages.ts). */
const OAUTH_SIGN_IN_PAGE = "/oauth/sign-in";
const OAUTH_CONSENT_PAGE = "/oauth/consent";

/**
 * Access tokens are JWTs checked in the gateway without a database read of the token (a revoked one is found in
 * the revocation list); short-lived, since a refresh is cheap (docs/decisions/0022-oauth-for-agents.md).
 */
export const ACCESS_TOKEN_TTL_SECONDS = 600;

/**
 * better-auth writes `emailVerified: true` only onto an unverified account (a magic link followed, a provider that
 * now says it verified the email); its update hooks see the data before, the account's id only after. The
 * before-hook marks the call (by its endpoint context, which both hooks get) and the after-hook acts on it.
 */
const emailProofHooks = (onEmailProven: AuthOptions["onEmailProven"]) => {
  const proving = new WeakSet<object>();
  return {
    before: async (data: { emailVerified?: unknown }, context: object | null | undefined) => {
      if (data.emailVerified === true && context) proving.add(context);
    },
    after: async (user: { id: string; emailVerified: boolean }, context: object | null | undefined) => {
      if (context && proving.delete(context) && user.emailVerified) await onEmailProven(user.id);
    },
  };
};

export interface AuthOptions {
  store: Pick<IdentityStore, "authDatabase" | "retireOlderMagicLinks">;
  /** The public URL; its origin is always trusted, and https makes cookies Secure with the __Secure- prefix. */
  baseUrl: string;
  secret: string;
  /** Origins that may send cookie-authenticated requests and be magic-link callback targets. */
  trustedOrigins: string[];
  mailer: MagicLinkMailer;
  magicLinkTtlSeconds?: number;
  logger: IdentityLogger;
  /** OpenID Connect, Google and GitHub sign-in; none by default. */
  providers?: IdentityProviders;
  /**
   * Called when an account's email becomes proven, before the proving sign-in gets its session: what the account
   * gathered while unproven is ended there (docs/decisions/0057-connected-apps.md).
   */
  onEmailProven: (accountId: string) => Promise<void>;
}

const noProviders: IdentityProviders = { oidc: undefined, google: undefined, github: undefined };

/** The agent-protocol endpoint: the one resource OAuth tokens are issued for, and their audience. */
export const mcpUrlOf = (publicUrl: string) => `${publicUrl.replace(/\/+$/, "")}/mcp`;

export function createAuth(options: AuthOptions) {
  // The issuer is the public origin, so the RFC 8414 document sits at /.well-known/oauth-authorization-server.
  const issuer = new URL(options.baseUrl).origin;
  const mcpUrl = mcpUrlOf(options.baseUrl);
  const providers = options.providers ?? noProviders;
  return withAuthContextOnlyInCalls(betterAuth({
    baseURL: options.baseUrl,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    database: options.store.authDatabase,
    logger: betterAuthLogger(options.logger),
    onAPIError: { onError: apiErrorLogger(options.logger) },
    telemetry: { enabled: false },
    // The gateway rate-limits /api/auth itself, keyed on the trusted client address; better-auth would key on
    // X-Forwarded-For and count in process memory.
    rateLimit: { enabled: false },
    advanced: {
      // Ids are random UUIDs made here, and an id better-auth chooses itself is kept as it is (its reservations'
      // hashed keys): docs/decisions/0011-uuid-account-ids.md. joins: a session is read with its user in one query
      // (Prisma relationJoins) rather than two.
      database: { generateId: () => randomUUID(), joins: true },
      useSecureCookies: new URL(options.baseUrl).protocol === "https:",
      // Pinned on: better-auth turns its origin and callback-URL checks off by itself when NODE_ENV=test.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    // No cookie cache: every request reads the session row, so a sign-out or revocation applies at once.
    session: { cookieCache: { enabled: false } },
    plugins: [
      magicLink({
        expiresIn: options.magicLinkTtlSeconds ?? 600,
        storeToken: "hashed",
        sendMagicLink: async ({ email, url }) => {
          await options.store.retireOlderMagicLinks(email);
          await options.mailer.send({ email, url });
        },
      }),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        // Keys authenticate only where the gateway checks them (resolveCaller), never as a better-auth session,
        // so an API key cannot reach better-auth's own routes (key management, sign-out, …).
        enableSessionForAPIKeys: false,
        rateLimit: { enabled: false },
        // Scopes travel in `permissions`, which only server-side calls may set.
        enableMetadata: false,
        // The bounds POST /api/keys documents (packages/contracts/src/credentials.ts); the 1-day minimum is checked
        // on the request (issue-account-key.ts), since a key made by an expiring key is cut to what its maker has left.
        maximumNameLength: 100,
        keyExpiration: { maxExpiresIn: 3650, minExpiresIn: 0 },
      }),
      // Signs the access tokens; its keys live in the identity schema (private halves encrypted with the secret).
      jwt({ jwt: { issuer }, disableSettingJwtHeader: true }),
      oauthProvider({
        loginPage: OAUTH_SIGN_IN_PAGE,
        consentPage: OAUTH_CONSENT_PAGE,
        // No "openid": an OAuth server, not an identity provider. offline_access lets a client ask for a refresh token.
        scopes: [...oauthScopes],
        resources: [{ identifier: mcpUrl, name: "Fitness agent protocol (MCP)", allowedScopes: [...oauthScopes] }],
        clientRegistrationDefaultResources: [mcpUrl],
        // Agents register themselves (RFC 7591, as MCP clients expect); what they may do is decided at consent.
        allowDynamicClientRegistration: true,
        allowUnauthenticatedClientRegistration: true,
        grantTypes: ["authorization_code", "refresh_token"],
        accessTokenExpiresIn: ACCESS_TOKEN_TTL_SECONDS,
        // A rotated refresh token used again is a replay: it fails and ends the whole family.
        refreshTokenReuseInterval: 0,
        // The email travels in the token so a request costs no read of the account (services are told it); iat_ms
        // places the token against a grant's end to the millisecond, where iat's whole seconds cannot tell a token
        // issued just after the end from one issued just before it.
        customAccessTokenClaims: ({ user }) => (user ? { email: user.email, iat_ms: Date.now() } : {}),
        // The gateway limits these routes itself (per client address), like sign-in.
        rateLimit: { token: false, authorize: false, introspect: false, revoke: false, register: false, userinfo: false },
      }),
      ...oidcPlugins(providers),
    ],
    socialProviders: socialProviders(providers),
    databaseHooks: { user: { update: emailProofHooks(options.onEmailProven) } },
    account: {
      // A provider's account joins the account with the same email only when the provider says it verified that
      // email, and only an account whose own email is proven (a magic link was followed). No provider is
      // "trusted": better-auth links a trusted provider's account even on an unverified email
      // (docs/decisions/0024-identity-provider-sign-in.md).
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true, allowDifferentEmails: false },
    },
  }));
}

export type Auth = ReturnType<typeof createAuth>;
