import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { AppError, authRoutes, MagicLinkRequest } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";

interface AuthHandler {
  handler(request: Request): Promise<Response>;
}

const toWebRequest = (request: FastifyRequest, publicUrl: string): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
  return new Request(new URL(request.url, publicUrl), {
    method: request.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
  });
};

/**
 * better-auth answers its errors as {code, message}; the API answers every error in one envelope. The session
 * view loses its token: the cookie is HttpOnly so that scripts never hold it, and a body must not undo that.
 */
const toEnvelope = async (response: Response) => {
  const text = await response.text();
  if (response.status < 400) return withoutSessionToken(text);
  try {
    const body = JSON.parse(text) as { message?: string; code?: string };
    return JSON.stringify({ error: body.message ?? body.code ?? response.statusText });
  } catch {
    return JSON.stringify({ error: response.statusText || "sign-in failed" });
  }
};

const withoutSessionToken = (text: string) => {
  if (!text.includes('"token"')) return text;
  const body = JSON.parse(text) as { session?: { token?: unknown } } | null;
  if (body?.session) delete body.session.token;
  return JSON.stringify(body);
};

const send = async (reply: FastifyReply, response: Response) => {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie" && name !== "content-length") void reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header("set-cookie", cookies);
  return reply.send(await toEnvelope(response));
};

interface AuthRoutesOptions {
  identity: AuthHandler;
  publicUrl: string;
  trustedOrigins: readonly string[];
  /** Rate limits of the route that sends mail. */
  limits: preHandlerAsyncHookHandler[];
}

const isTrustedTarget = (callbackURL: string, trustedOrigins: readonly string[]) => {
  if (callbackURL.startsWith("/") && !callbackURL.startsWith("//")) return true;
  return URL.canParse(callbackURL) && trustedOrigins.includes(new URL(callbackURL).origin);
};

/**
 * What better-auth would refuse anyway (a foreign or missing Origin, a malformed body, an untrusted callback) is
 * refused before the rate limits count the request: otherwise anyone could spend someone else's sign-in budget
 * with requests that never send a mail.
 */
const signInGuard = (trustedOrigins: readonly string[]) => async (request: FastifyRequest) => {
  const origin = request.headers.origin;
  if (origin === undefined || !trustedOrigins.includes(origin)) throw new AppError("forbidden", "cross-site request refused");
  const body = MagicLinkRequest.safeParse(request.body);
  if (!body.success) throw new AppError("validation", body.error.issues[0]?.message ?? "invalid sign-in request");
  if (body.data.callbackURL !== undefined && !isTrustedTarget(body.data.callbackURL, trustedOrigins)) {
    throw new AppError("forbidden", "callbackURL must be on a trusted origin");
  }
};

/** Mounts only the sign-in routes the API documents; the rest of better-auth's surface stays closed. */
export const authRoutesPlugin = (app: HttpApp, { identity, publicUrl, trustedOrigins, limits }: AuthRoutesOptions) => {
  for (const { method, path } of authRoutes) {
    app.route({
      method,
      url: path,
      ...(path === "/api/auth/sign-in/magic-link" ? { preHandler: [signInGuard(trustedOrigins), ...limits] } : {}),
      handler: async (request, reply) => send(reply, await identity.handler(toWebRequest(request, publicUrl))),
    });
  }
};
