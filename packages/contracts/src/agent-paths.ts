import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ErrorEnvelope } from "./errors.ts";
import { AuthorizationServerMetadata, OAuthConsentForm, OAuthSignInForm, ProtectedResourceMetadata } from "./oauth.ts";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const html = { content: { "text/html": { schema: z.string() } } };
const form = (schema: z.ZodType) => ({ required: true, content: { "application/x-www-form-urlencoded": { schema } } });
const tags = ["Agents"];
const signedQuery = z.looseObject({ sig: z.string(), exp: z.string() }).meta({ description: "The authorization request, signed by the server." });
const envelope = (description: string) => ({ description, ...json(ErrorEnvelope) });

/** OpenAPI entries for the agent-protocol endpoint, its discovery documents and the authorization pages. */
export const agentPaths: ZodOpenApiPathsObject = {
  "/mcp": {
    post: {
      operationId: "mcp", summary: "Agent protocol (MCP) over Streamable HTTP, stateless",
      description: "JSON-RPC; the tools are this API's operations (name = operationId, input = its params, query and body, " +
        "output = its response), each needing the operation's scope. Bearer OAuth token (audience: this URL) or API key.",
      tags, security: [{ oauth: [] }, { apiKey: [] }],
      requestBody: { required: true, ...json(z.looseObject({ jsonrpc: z.literal("2.0"), method: z.string() })) },
      responses: {
        "200": { description: "The JSON-RPC answer.", ...json(z.looseObject({ jsonrpc: z.literal("2.0") })) },
        "202": { description: "A notification was accepted." },
        "401": envelope("No, an invalid, expired or revoked token, or one for another resource; `WWW-Authenticate` names the resource metadata."),
        "403": envelope("An `Origin` that is not trusted."),
      },
    },
    get: { operationId: "mcpStream", summary: "Not offered: the server is stateless", tags, security: [], responses: { "405": envelope("Use POST.") } },
    delete: { operationId: "mcpEndSession", summary: "Not offered: the server keeps no sessions", tags, security: [], responses: { "405": envelope("Use POST.") } },
  },
  "/.well-known/oauth-protected-resource/mcp": {
    get: {
      operationId: "protectedResourceMetadata", summary: "RFC 9728 metadata of /mcp", tags, security: [],
      responses: { "200": { description: "Metadata.", ...json(ProtectedResourceMetadata) } },
    },
  },
  "/.well-known/oauth-authorization-server": {
    get: {
      operationId: "authorizationServerMetadata", summary: "RFC 8414 metadata of the authorization server", tags, security: [],
      responses: { "200": { description: "Metadata.", ...json(AuthorizationServerMetadata) } },
    },
  },
  "/oauth/sign-in": {
    get: {
      operationId: "oauthSignInPage", summary: "Sign-in page of an authorization request (asks for an email)", tags, security: [],
      requestParams: { query: signedQuery }, responses: { "200": { description: "HTML form.", ...html } },
    },
    post: {
      operationId: "oauthSignIn", summary: "Email a sign-in link that returns to the authorization request", tags, security: [],
      requestBody: form(OAuthSignInForm),
      responses: { "200": { description: "HTML: check your email.", ...html }, "400": envelope("Invalid email."), "403": envelope("Untrusted Origin."), "429": envelope("Too many links.") },
    },
  },
  "/oauth/consent": {
    get: {
      operationId: "oauthConsentPage", summary: "Consent page: the client's name and the scopes it asks for", tags, security: [{ sessionCookie: [] }],
      requestParams: { query: signedQuery },
      responses: { "200": { description: "HTML form with allow and deny.", ...html }, "401": envelope("Not signed in.") },
    },
    post: {
      operationId: "oauthConsent", summary: "Allow or deny; redirects back to the client", tags, security: [{ sessionCookie: [] }],
      requestBody: form(OAuthConsentForm),
      responses: { "302": { description: "To the client's redirect URI with a code or `access_denied`." }, "400": envelope("Invalid or expired request."), "401": envelope("Not signed in."), "403": envelope("Untrusted Origin.") },
    },
  },
};
