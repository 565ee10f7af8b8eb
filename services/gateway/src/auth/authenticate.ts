import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError, type Operation } from "@fit/contracts";
import { signAssertion, type Caller } from "@fit/service-kit";
import { hasScope, insufficientScopeHeader } from "./scopes.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed internal assertion forwarded to a service in place of the caller's credential. */
    assertion: string;
  }
}

export interface CallerResolver {
  resolveCaller(headers: { authorization?: string | undefined; cookie?: string | undefined }): Promise<Caller | null>;
}

export interface AuthenticateOptions {
  identity: CallerResolver;
  assertionSecret: string;
  findOperation: (method: string, url: string) => Operation | undefined;
  /** Origins allowed to send cookie-authenticated writes (CSRF defence; bearer credentials are not ambient). */
  trustedOrigins: readonly string[];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The gateway's door for /api: which operation, who is calling, may they. Unknown routes are a 404 before any
 * credential work; an unknown caller a 401; a missing scope a 403 naming it.
 */
export const authenticate = ({ identity, assertionSecret, findOperation, trustedOrigins }: AuthenticateOptions) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    const op = findOperation(request.method, request.url);
    if (!op) throw new AppError("not_found", "not found");
    const caller = await identity.resolveCaller({
      authorization: request.headers.authorization,
      cookie: request.headers.cookie,
    });
    if (!caller) throw new AppError("unauthenticated", "sign in or send an API key as Authorization: Bearer <key>");
    const origin = request.headers.origin;
    const cookieWrite = !request.headers.authorization && !SAFE_METHODS.has(request.method);
    if (cookieWrite && origin !== undefined && !trustedOrigins.includes(origin)) {
      throw new AppError("forbidden", "cross-site request refused");
    }
    if (!hasScope(caller, op.scope)) {
      void reply.header("www-authenticate", insufficientScopeHeader(op.scope));
      throw new AppError("forbidden", `this credential lacks the ${op.scope} scope`);
    }
    request.caller = caller;
    request.assertion = await signAssertion(assertionSecret, caller);
  };
