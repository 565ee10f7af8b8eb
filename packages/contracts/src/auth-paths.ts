import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { MagicLinkRequest, MagicLinkVerifyQuery, SessionView } from "./auth.ts";
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
};
