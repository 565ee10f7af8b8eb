import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "@fit/contracts";
import { signAssertion } from "@fit/service-kit";
import type { AuthenticatedCaller, Credential } from "../identity/credential.ts";
import type { IngestTokenMatcher } from "./ingest-token.ts";
import { hasScope, insufficientScopeHeader } from "./scopes.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed internal assertion forwarded to a service in place of the caller's credential. */
    assertion: string;
    /** What the caller authenticated with; the gateway's own decisions only, never forwarded. */
    credential: Credential;
  }
}

export interface CallerResolver {
  resolveCaller(headers: { authorization?: string | undefined; cookie?: string | undefined }): Promise<AuthenticatedCaller | null>;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: an unknown caller is a 401. A cookie-authenticated write from an origin that is not trusted
 * is a 403 (CSRF defence; bearer credentials are not sent by browsers on their own, so they need none).
 * The scale-ingest token is valid only on its own route: anywhere else it is a 403, not a 401.
 * Every refusal is counted by `refused` (per client address), so guessing keys or flooding unknown paths
 * without a credential meets a 429 like any other flood.
 */
export const identify = ({ identity, trustedOrigins, refused, isIngestToken }: {
  identity: CallerResolver;
  trustedOrigins: readonly string[];
  refused: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  isIngestToken?: IngestTokenMatcher | null;
}) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      if (isIngestToken?.(request.headers.authorization)) {
        throw new AppError("forbidden", "the ingest token is accepted by POST /api/ingest/weight only");
      }
      const { credential, ...caller } = await callerOf(request, identity, trustedOrigins);
      request.caller = caller;
      request.credential = credential;
    } catch (error) {
      // Only a refusal counts: an identity store that is down is a 503, not the caller's fault.
      if (error instanceof AppError && (error.code === "unauthenticated" || error.code === "forbidden")) await refused(request, reply);
      throw error;
    }
  };

const callerOf = async (request: FastifyRequest, identity: CallerResolver, trustedOrigins: readonly string[]) => {
  // A token in a URL ends up in logs and histories: refused even beside a good header (RFC 9700 §2.5). Read from
  // the query the router parsed (names percent-decoded; every request these hooks see matched a route, /api/*
  // included): parsing the URL again was ~2 % of the gateway's CPU under load.
  if (Object.hasOwn(request.query as object, "access_token")) {
    throw new AppError("unauthenticated", "send the access token in the Authorization header, never in the URL");
  }
  const caller = await identity.resolveCaller({ authorization: request.headers.authorization, cookie: request.headers.cookie });
  if (!caller) throw new AppError("unauthenticated", "sign in, or send an API key or access token as Authorization: Bearer <token>");
  const origin = request.headers.origin;
  const cookieWrite = !request.headers.authorization && !SAFE_METHODS.has(request.method);
  if (cookieWrite && origin !== undefined && !trustedOrigins.includes(origin)) {
    throw new AppError("forbidden", "cross-site request refused");
  }
  return caller;
};

/**
 * May they: only operations in the contracts have routes (anything else is a 404, so nothing missing from
 * /openapi.json can be called), a session-only operation needs a session, and the credential must carry the
 * operation's scope (403 naming it).
 */
export const authorize = ({ assertionSecret }: { assertionSecret: string }) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    const op = request.routeOptions.config.operation;
    if (!op) throw new AppError("not_found", "not found");
    if (op.credential === "session" && request.credential.kind !== "session") {
      throw new AppError("forbidden", "only a signed-in session may do this, not an API key or agent token");
    }
    if (!hasScope({ ...request.caller, credential: request.credential }, op.scope)) {
      void reply.header("www-authenticate", insufficientScopeHeader(op.scope));
      throw new AppError("forbidden", `this credential lacks the ${op.scope} scope`);
    }
    // Only a forwarded request needs the assertion; the gateway's own routes already know the caller.
    if (op.service !== "gateway") request.assertion = await signAssertion(assertionSecret, request.caller);
  };
