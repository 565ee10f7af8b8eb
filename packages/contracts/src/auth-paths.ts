import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { MagicLinkRequest, MagicLinkVerifyQuery, ProviderCallbackQuery, ProviderId, ProviderSignInRequest, SessionView } from "./auth.ts";
import { ErrorEnvelope } from "./errors.ts";
import { OAuthError } from "./oauth.ts";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const tags = ["Sign-in"];
const oauthTags = ["OAuth"];
const form = (fields: Record<string, z.ZodType>) => ({ content: { "application/x-www-form-urlencoded": { schema: z.object(fields) } } });
const oauthError = (description: string) => ({ description, ...json(OAuthError) });

/** OpenAPI entries for the better-auth routes the gateway mounts (`authRoutes`). */
export const authPaths: ZodOpenApiPathsObject = {
  "/api/auth/sign-in/magic-link": {
    post: {
      operationId: "requestMagicLink", summary: "Email a single-use sign-in link", tags, security: [],
      requestBody: { required: true, ...json(MagicLinkRequest) },
      responses: {
        "200": { description: "The link was sent (or printed, without SMTP).", ...json(z.object({ status: z.boolean() })) },
        "400": { description: "Invalid email.", ...json(ErrorEnvelope) },
        "403": { description: "A missing or foreign Origin, or an untrusted callbackURL: sent from a page not ours.", ...json(ErrorEnvelope) },
        "429": { description: "Too many requests.", ...json(ErrorEnvelope) },
      },
    },
  },
  "/api/auth/magic-link/verify": {
    get: {
      operationId: "verifyMagicLink", summary: "Follow a sign-in link: sets the session cookie", tags, security: [],
      requestParams: { query: MagicLinkVerifyQuery },
      responses: {
        "302": { description: "Signed in; `Set-Cookie` carries the HttpOnly session cookie." },
        "401": { description: "Unknown, used or expired link.", ...json(ErrorEnvelope) },
      },
    },
  },
  "/api/auth/get-session": {
    get: {
      operationId: "getSession", summary: "The signed-in account, or null", tags, security: [{ sessionCookie: [] }],
      responses: { "200": { description: "Session and user.", ...json(SessionView) } },
    },
  },
  "/api/auth/sign-out": {
    post: {
      operationId: "signOut", summary: "End the session", tags, security: [{ sessionCookie: [] }],
      responses: { "200": { description: "Signed out.", ...json(z.object({ success: z.boolean() })) }, "401": { description: "Not signed in.", ...json(ErrorEnvelope) } },
    },
  },
  // The OAuth 2.1 authorization server for agents (better-auth's oauth-provider; docs/decisions/0022-oauth-for-agents.md).
  "/api/auth/oauth2/authorize": {
    get: {
      operationId: "oauthAuthorize", summary: "Authorization request (code flow, PKCE S256 required)", tags: oauthTags, security: [],
      requestParams: {
        query: z.looseObject({
          response_type: z.literal("code"), client_id: z.string(), redirect_uri: z.string(), scope: z.string().optional(),
          state: z.string().optional(), code_challenge: z.string(), code_challenge_method: z.literal("S256"),
          resource: z.string().optional().meta({ description: "The MCP URL (RFC 8707); tokens are bound to it." }),
        }),
      },
      responses: {
        "302": { description: "To the sign-in page, the consent page, or back to the client with a code or an error." },
        "400": oauthError("Unknown client or redirect URI."),
      },
    },
  },
  "/api/auth/oauth2/token": {
    post: {
      operationId: "oauthToken", summary: "Exchange a code (with its PKCE verifier) or a refresh token; refresh tokens rotate",
      tags: oauthTags, security: [],
      requestBody: {
        required: true,
        ...form({
          grant_type: z.enum(["authorization_code", "refresh_token"]), code: z.string().optional(), code_verifier: z.string().optional(),
          redirect_uri: z.string().optional(), refresh_token: z.string().optional(), client_id: z.string().optional(), resource: z.string().optional(),
        }),
      },
      responses: {
        "200": { description: "Tokens.", ...json(z.looseObject({ access_token: z.string(), token_type: z.string(), expires_in: z.number(), refresh_token: z.string().optional(), scope: z.string() })) },
        "400": oauthError("invalid_grant (a used code, a replayed refresh token), invalid_request, invalid_target."),
        "401": oauthError("invalid_client."),
      },
    },
  },
  "/api/auth/oauth2/register": {
    post: {
      operationId: "oauthRegister", summary: "Dynamic client registration (RFC 7591)", tags: oauthTags, security: [],
      requestBody: {
        required: true,
        ...json(z.looseObject({ redirect_uris: z.array(z.string()), client_name: z.string().optional(), token_endpoint_auth_method: z.string().optional() })),
      },
      responses: {
        "200": { description: "The registered client.", ...json(z.looseObject({ client_id: z.string(), client_secret: z.string().optional() })) },
        "400": oauthError("invalid_client_metadata or invalid_redirect_uri."),
        "429": { description: "Too many registrations from this address.", ...json(ErrorEnvelope) },
      },
    },
  },
  "/api/auth/oauth2/revoke": {
    post: {
      operationId: "oauthRevoke", summary: "Revoke an access or refresh token (RFC 7009); applies at the next request", tags: oauthTags, security: [],
      requestBody: { required: true, ...form({ token: z.string(), token_type_hint: z.string().optional(), client_id: z.string().optional() }) },
      responses: { "200": { description: "Revoked (or unknown)." }, "400": oauthError("Malformed request."), "401": oauthError("invalid_client.") },
    },
  },
  "/api/auth/sign-in/social": {
    post: {
      operationId: "startProviderSignIn",
      summary: "Start signing in through an identity provider (OpenID Connect, Google, GitHub)",
      description:
        "Answers the provider's authorization URL (authorization code with PKCE, S256); the browser goes there, and the " +
        "provider sends it back to `/api/auth/callback/{providerId}`. A provider's account joins the existing account " +
        "with the same email only when the provider says that email is verified; otherwise sign-in ends at the error " +
        "page with `error=account_not_linked`. Refused like magic links: a foreign Origin or callback is a 403, and " +
        "starts are rate-limited per client address.",
      tags, security: [],
      requestBody: { required: true, ...json(ProviderSignInRequest) },
      responses: {
        "200": { description: "Where to send the browser.", ...json(z.object({ url: z.url(), redirect: z.boolean() })) },
        "400": { description: "Invalid body.", ...json(ErrorEnvelope) },
        "403": { description: "Foreign Origin or callback.", ...json(ErrorEnvelope) },
        "404": { description: "The deployment configured no such provider.", ...json(ErrorEnvelope) },
        "429": { description: "Too many requests.", ...json(ErrorEnvelope) },
        "503": { description: "The provider is configured but its discovery failed at start.", ...json(ErrorEnvelope) },
        "504": { description: "The provider did not answer in time.", ...json(ErrorEnvelope) },
      },
    },
  },
  "/api/auth/callback/{providerId}": {
    get: {
      operationId: "finishProviderSignIn", summary: "Where the identity provider sends the browser back: sets the session cookie", tags, security: [],
      requestParams: { path: z.object({ providerId: ProviderId }), query: ProviderCallbackQuery },
      responses: {
        "302": {
          description:
            "Signed in: to callbackURL with the HttpOnly session cookie. Failed (the provider refused or failed, the state " +
            "is unknown or expired, an unverified email matches an existing account): to errorCallbackURL or " +
            "/api/auth/error with `?error=<code>`.",
        },
        "404": { description: "The deployment configured no such provider.", ...json(ErrorEnvelope) },
        "504": { description: "The provider did not answer in time.", ...json(ErrorEnvelope) },
      },
    },
  },
  "/api/auth/error": {
    get: {
      operationId: "signInError", summary: "A page naming why a provider sign-in failed", tags, security: [],
      requestParams: { query: z.object({ error: z.string().optional(), error_description: z.string().optional() }) },
      responses: { "200": { description: "An HTML page.", content: { "text/html": { schema: z.string() } } } },
    },
  },
};
