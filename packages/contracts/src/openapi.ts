import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { agentPaths } from "./agent-paths.ts";
import { authPaths } from "./auth-paths.ts";
import { ErrorEnvelope } from "./errors.ts";
import { IdempotencyKeyHeaders } from "./idempotency.ts";
import { operationList, toOpenApiPath, type Operation } from "./operations.ts";
import { agentScopes, scopes } from "./scopes.ts";

const errorText: Record<number, string> = {
  400: "Validation failed; `error` names the field and its bound.",
  401: "No credential, or an invalid, expired or revoked one.",
  403: "The credential lacks the scope, or may not use this route.",
  404: "Unknown id, including an id of another account.",
  413: "Body larger than 64 KiB (10 MiB for an activity-file upload).",
  409: "A request with the same Idempotency-Key is still in progress; retry once it has answered.",
  415: "Body is not application/json.",
  422: "This Idempotency-Key was used with another request (method, path, query or body); use a new key.",
  429: "Rate limited; see Retry-After.",
  500: "Unexpected fault (`{\"error\": \"internal error\"}`, never a stack).",
  502: "The language model failed; `detail` carries its status, error code and request id (never a key or a prompt).",
  503: "A dependency (bus, database, a service) is unavailable.",
  504: "The language model or a service did not answer in time.",
};

/** Every authenticated operation can answer these, whatever it does. */
const commonErrors = [401, 403, 429, 500];

const errorResponse = (status: number) => ({
  description: errorText[status] ?? "Error.",
  content: { "application/json": { schema: ErrorEnvelope } },
});

const accountSecurity = (op: Operation): Record<string, string[]>[] =>
  op.credential === "session" ? [{ sessionCookie: [] }]
  : op.credential === "ingest-token" ? [{ ingestToken: [] }]
  : [
    { sessionCookie: [] },
    { apiKey: [op.scope] },
    // No OAuth token holds a granted-only scope.
    ...(agentScopes.includes(op.scope) ? [{ oauth: [op.scope] }] : []),
  ];

/** JSON for every body; an upload route also takes its files as raw bytes. */
const requestContent = (op: Operation) => ({
  "application/json": { schema: op.body },
  ...Object.fromEntries((op.upload?.mediaTypes ?? []).map((type) => [type, { schema: z.string().meta({ format: "binary" }) }])),
});

const toOperation = (op: Operation): ZodOpenApiOperationObject => {
  const statuses = [...new Set([...op.errors, ...commonErrors])].sort();
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: accountSecurity(op),
    "x-required-scope": op.scope,
    ...(op.query || op.params || op.idempotencyKey
      ? {
        requestParams: {
          ...(op.query ? { query: op.query } : {}),
          ...(op.params ? { path: op.params } : {}),
          ...(op.idempotencyKey ? { header: IdempotencyKeyHeaders } : {}),
        },
      }
      : {}),
    ...(op.body ? { requestBody: { required: true, content: requestContent(op) } } : {}),
    responses: {
      [String(op.status ?? 200)]: {
        description: op.status === 202 ? "Accepted: the rest happens asynchronously." : "Success.",
        ...(op.attachment
          ? { headers: { "Content-Disposition": { description: "A download.", schema: { type: "string" as const, examples: [`attachment; filename="${op.attachment}"`] } } } }
          : {}),
        content: { "application/json": { schema: op.response } },
      },
      ...Object.fromEntries(statuses.map((s) => [String(s), errorResponse(s)])),
    },
  };
};

const publicPaths: ZodOpenApiPathsObject = {
  "/openapi.json": {
    get: {
      operationId: "getOpenApi", summary: "This OpenAPI 3.1 description", tags: ["Meta"], security: [],
      responses: { "200": { description: "The OpenAPI document.", content: { "application/json": { schema: z.looseObject({}) } } } },
    },
  },
  "/healthz": {
    get: {
      operationId: "liveness", summary: "Liveness", tags: ["Meta"], security: [],
      responses: { "200": { description: "The process is up.", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } },
    },
  },
  "/readyz": {
    get: {
      operationId: "readiness", summary: "Readiness: database, bus and services reachable", tags: ["Meta"], security: [],
      responses: {
        "200": { description: "Ready.", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } },
        "503": errorResponse(503),
      },
    },
  },
};

export interface OpenApiOptions {
  version: string;
  serverUrl?: string;
}

export const buildOpenApiDocument = ({ version, serverUrl }: OpenApiOptions) => {
  const paths: ZodOpenApiPathsObject = { ...publicPaths, ...authPaths, ...agentPaths };
  for (const op of operationList) {
    const path = toOpenApiPath(op.path);
    paths[path] = { ...paths[path], [op.method.toLowerCase()]: toOperation(op) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Fitness tracking API",
      version,
      description:
        "Per-account fitness tracker. Weights are kilograms, measurements centimetres, timestamps Unix milliseconds, " +
        "days YYYY-MM-DD. Every error answers `{\"error\": string, \"detail\"?: string}`. Unknown body fields are ignored.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "__Secure-better-auth.session_token",
          description: "Session cookie set by sign-in; named without the `__Secure-` prefix on plain http.",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: `API key as \`Authorization: Bearer <key>\`. Optional scopes: ${scopes.join(", ")}. No scopes means full access.`,
        },
        ingestToken: {
          type: "http",
          scheme: "bearer",
          description: "The shared scale-ingest token (`INGEST_TOKEN`), accepted by POST /api/ingest/weight alone.",
        },
        oauth: {
          type: "oauth2",
          description: "OAuth 2.1 access token for agents (audience: the /mcp URL), as `Authorization: Bearer <token>`. Never holds keys or account.",
          flows: {
            authorizationCode: {
              authorizationUrl: "/api/auth/oauth2/authorize",
              tokenUrl: "/api/auth/oauth2/token",
              refreshUrl: "/api/auth/oauth2/token",
              scopes: Object.fromEntries(agentScopes.map((scope) => [scope, scope])),
            },
          },
        },
      },
    },
  });
};
