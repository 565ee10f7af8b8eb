import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { MagicLinkRequest, MagicLinkVerifyQuery, ProviderCallbackQuery, ProviderId, ProviderSignInRequest, SessionView } from "./auth.ts";
import { ErrorEnvelope } from "./errors.ts";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const tags = ["Sign-in"];

/** OpenAPI entries for the better-auth routes the gateway mounts (`authRoutes`). */
export const authPaths: ZodOpenApiPathsObject = {
  "/api/auth/sign-in/magic-link": {
    post: {
      operationId: "requestMagicLink", summary: "Email a single-use sign-in link", tags, security: [],
      requestBody: { required: true, ...json(MagicLinkRequest) },
      responses: {
        "200": { description: "The link was sent (or printed, without SMTP).", ...json(z.object({ status: z.boolean() })) },
        "400": { description: "Invalid email or untrusted callbackURL.", ...json(ErrorEnvelope) },
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
