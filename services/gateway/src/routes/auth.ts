import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { AppError, authRoutes, MagicLinkRequest } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";

interface AuthHandler {
  handler(request: Request): Promise<Response>;
  revokeAccessToken(token: string, clientId: string | undefined): Promise<boolean>;
}

const toWebRequest = (request: FastifyRequest, publicUrl: string): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
  // A form body (the OAuth endpoints') arrives as its text and goes on as it came.
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  return new Request(new URL(request.url, publicUrl), { method: request.method, headers, ...(hasBody ? { body } : {}) });
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

const send = async (reply: FastifyReply, response: Response, oauth: boolean) => {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie" && name !== "content-length") void reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header("set-cookie", cookies);
  // The authorization server answers OAuth errors (RFC 6749 §5.2) as they are.
  return reply.send(oauth ? await response.text() : await toEnvelope(response));
};

interface AuthRoutesOptions {
  identity: AuthHandler;
  publicUrl: string;
  trustedOrigins: readonly string[];
  /** Rate limits of the route that sends mail. */
  limits: preHandlerAsyncHookHandler[];
  /** Rate limit of client registration, per client address. */
  registrationLimit: preHandlerAsyncHookHandler;
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

/** The client of a revocation request: HTTP Basic (RFC 6749 §2.3.1) or `client_id` in the form. */
const revokingClient = (request: FastifyRequest, form: URLSearchParams) => {
  const basic = /^Basic +(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  if (!basic) return form.get("client_id") ?? undefined;
  return decodeURIComponent(Buffer.from(basic, "base64").toString("utf8").split(":")[0] ?? "");
};

/**
 * An access token is a JWT the plugin cannot revoke (it answers unsupported_token_type): the gateway lists it as
 * revoked itself, so the next request with it is a 401. Refresh tokens go on to the plugin.
 */
const revokeJwt = (identity: AuthHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
  const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
  const token = form.get("token");
  if (token && (await identity.revokeAccessToken(token, revokingClient(request, form)))) {
    return reply.status(200).header("cache-control", "no-store").send({});
  }
};

/** Mounts only the sign-in and authorization-server routes the API documents; the rest of better-auth stays closed. */
export const authRoutesPlugin = (app: HttpApp, { identity, publicUrl, trustedOrigins, limits, registrationLimit }: AuthRoutesOptions) => {
  const guards: Record<string, preHandlerAsyncHookHandler[]> = {
    "/api/auth/sign-in/magic-link": [signInGuard(trustedOrigins), ...limits],
    "/api/auth/oauth2/register": [registrationLimit],
    "/api/auth/oauth2/revoke": [revokeJwt(identity)],
  };
  void app.register(async (scope) => {
    // The token, revocation and registration endpoints take forms (RFC 6749); better-auth parses them itself.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => done(null, body));
    for (const { method, path, oauth } of authRoutes) {
      scope.route({
        method,
        url: path,
        ...(guards[path] ? { preHandler: guards[path] } : {}),
        handler: async (request, reply) => {
          const webRequest = toWebRequest(request, publicUrl);
          // The authorization endpoint is a page the browser navigates to: always answered with a redirect (better-auth
          // answers JSON to an in-page fetch, which the gateway's plain pages never make).
          if (oauth) webRequest.headers.delete("sec-fetch-mode");
          return send(reply, await identity.handler(webRequest), oauth === true);
        },
      });
    }
  });
};
