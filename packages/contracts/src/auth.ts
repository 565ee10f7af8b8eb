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
];
