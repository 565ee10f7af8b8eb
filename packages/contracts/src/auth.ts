import { z } from "zod";

/** The sign-in routes the gateway exposes from better-auth (everything else under /api/auth is a 404). */
export const MagicLinkRequest = z
  .object({
    email: z.email({ error: "email must be an email address" }),
    callbackURL: z.string().max(2000).optional().meta({ description: "Where to land after sign-in; must be a trusted origin." }),
  })
  .meta({ id: "MagicLinkRequest" });

export const MagicLinkVerifyQuery = z.object({
  token: z.string().meta({ description: "Single-use token from the emailed link." }),
  callbackURL: z.string().optional(),
});

export const SessionView = z
  .object({
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable().optional() }).loose(),
    session: z.object({ expiresAt: z.string() }).loose(),
  })
  .nullable()
  .meta({ id: "SessionView" });

/** Sign-in through an identity provider: the providers the gateway's configuration names (docs/decisions/0024-identity-provider-sign-in.md). */
export const ProviderId = z.string().regex(/^[a-z0-9-]{1,32}$/, "provider must be lower-case letters, digits or -");

const landing = (what: string) => z.string().max(2000).optional().meta({ description: `${what}; must be on a trusted origin.` });

export const ProviderSignInRequest = z
  .object({
    provider: ProviderId.meta({ description: "`oidc` (or the OIDC_NAME the deployment chose), `google` or `github`: one the deployment configured." }),
    callbackURL: landing("Where to land after sign-in"),
    errorCallbackURL: landing("Where to land when sign-in fails, with `?error=<code>` (default: /api/auth/error)"),
    newUserCallbackURL: landing("Where a newly created account lands (default: callbackURL)"),
  })
  .meta({ id: "ProviderSignInRequest" });

export const ProviderCallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  iss: z.string().optional(),
});

/**
 * better-auth routes the gateway mounts. `oauth` routes are the OAuth 2.1 authorization server's: they take form
 * bodies and answer OAuth errors (RFC 6749 §5.2), not the API's envelope.
 */
export const authRoutes: readonly { method: "GET" | "POST"; path: string; oauth?: true }[] = [
  { method: "POST", path: "/api/auth/sign-in/magic-link" },
  { method: "GET", path: "/api/auth/magic-link/verify" },
  { method: "GET", path: "/api/auth/get-session" },
  { method: "POST", path: "/api/auth/sign-out" },
  { method: "GET", path: "/api/auth/oauth2/authorize", oauth: true },
  { method: "POST", path: "/api/auth/oauth2/token", oauth: true },
  { method: "POST", path: "/api/auth/oauth2/register", oauth: true },
  { method: "POST", path: "/api/auth/oauth2/revoke", oauth: true },
  { method: "POST", path: "/api/auth/sign-in/social" },
  { method: "GET", path: "/api/auth/callback/:providerId" },
  { method: "GET", path: "/api/auth/error" },
];
