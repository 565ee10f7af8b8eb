import { z } from "zod";

/** Where an agent-protocol client learns how to get a token for /mcp (RFC 9728). */
export const ProtectedResourceMetadata = z
  .object({
    resource: z.url().meta({ description: "The MCP endpoint's URL, exactly: tokens must be requested for it (RFC 8707)." }),
    authorization_servers: z.array(z.url()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.literal("header")),
    resource_name: z.string(),
  })
  .meta({ id: "ProtectedResourceMetadata" });

/** RFC 8414 metadata as better-auth's oauth-provider writes it; the fields clients rely on are named. */
export const AuthorizationServerMetadata = z
  .looseObject({
    issuer: z.url(),
    authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    registration_endpoint: z.url().optional(),
    revocation_endpoint: z.url().optional(),
    scopes_supported: z.array(z.string()).optional(),
    code_challenge_methods_supported: z.array(z.literal("S256")),
  })
  .meta({ id: "AuthorizationServerMetadata" });

/** An OAuth error (RFC 6749 §5.2): the authorization server's endpoints answer these, not the API envelope. */
export const OAuthError = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: "OAuthError" });

/** What the sign-in page posts: the email to send a link to, and the authorization request to return to. */
export const OAuthSignInForm = z.object({
  email: z.email({ error: "email must be an email address" }),
  oauth_query: z.string().min(1).max(8000),
});

/** What the consent page posts. */
export const OAuthConsentForm = z.object({
  decision: z.enum(["allow", "deny"]),
  oauth_query: z.string().min(1).max(8000),
});
