import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { z } from "zod";
import { AppError, authRoutes, MagicLinkRequest, ProviderSignInRequest } from "@fit/contracts";
import type { KeyValue } from "@fit/bus";
import type { HttpApp } from "@fit/service-kit";
import type { Identity } from "../identity/identity.ts";
import { htmlHeaders, PLAIN_PAGE_CSP } from "./html-headers.ts";
import { authorizationAnswer, codeReplay, registrationGuard, revocationAnswer, tokenAnswer } from "./oauth-edge.ts";

type AuthHandler = Pick<Identity, "handler" | "revokeAccessToken" | "revokeAccessTokenId" | "resolveCaller">;

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
  // better-auth's own pages (its error page) get the headers of every HTML page the gateway serves.
  if (response.headers.get("content-type")?.startsWith("text/html")) {
    htmlHeaders(reply, PLAIN_PAGE_CSP);
    return reply.send(await response.text());
  }
  // The authorization server answers OAuth errors (RFC 6749 §5.2) as they are.
  return reply.send(oauth ? await response.text() : await toEnvelope(response));
};

interface ProviderSignInOptions {
  /** The providers the configuration names; any other answers 404. */
  configured: readonly string[];
  /** Those of them ready for sign-in; a configured one that is not answers 503. */
  ready: () => Promise<readonly string[]>;
  /** How long a sign-in start or a callback may take, the provider's answers included. */
  timeoutMs: number;
  /** Rate limits of sign-in starts. */
  limits: preHandlerAsyncHookHandler[];
}

interface AuthRoutesOptions {
  identity: AuthHandler;
  publicUrl: string;
  trustedOrigins: readonly string[];
  /** Rate limits of the route that sends mail. */
  limits: preHandlerAsyncHookHandler[];
  /** Rate limit of client registration, per client address. */
  registrationLimit: preHandlerAsyncHookHandler;
  /** Rate limit of the routes that exchange a code, link or refresh token for a credential, per client address. */
  exchangeLimit: preHandlerAsyncHookHandler;
  /** Which access token each authorization code bought, shared by every replica (see codeReplay). */
  issuedByCode: KeyValue;
  providerSignIn: ProviderSignInOptions;
}

const isTrustedTarget = (callbackURL: string, trustedOrigins: readonly string[]) => {
  if (callbackURL.startsWith("/") && !callbackURL.startsWith("//")) return true;
  return URL.canParse(callbackURL) && trustedOrigins.includes(new URL(callbackURL).origin);
};

const landingFields = ["callbackURL", "errorCallbackURL", "newUserCallbackURL"] as const;

/**
 * What better-auth would refuse anyway (a foreign or missing Origin, a malformed body, an untrusted callback) is
 * refused before the rate limits count the request: otherwise anyone could spend someone else's sign-in budget
 * with requests that never send a mail. Only the documented fields go on to better-auth (its social sign-in also
 * takes a raw ID token, a flow this API does not offer).
 */
const signInGuard = (trustedOrigins: readonly string[], schema: z.ZodType<Partial<Record<(typeof landingFields)[number], string>>>) =>
  async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin === undefined || !trustedOrigins.includes(origin)) throw new AppError("forbidden", "cross-site request refused");
    const body = schema.safeParse(request.body);
    if (!body.success) throw new AppError("validation", body.error.issues[0]?.message ?? "invalid sign-in request");
    for (const field of landingFields) {
      const target = body.data[field];
      if (target !== undefined && !isTrustedTarget(target, trustedOrigins)) throw new AppError("forbidden", `${field} must be on a trusted origin`);
    }
    request.body = body.data;
  };

/** A provider the configuration does not name is a 404, as if the route were not there. */
const knownProvider = ({ configured, ready }: Pick<ProviderSignInOptions, "configured" | "ready">, idOf: (request: FastifyRequest) => string) => async (request: FastifyRequest) => {
  const id = idOf(request);
  if (!configured.includes(id)) throw new AppError("not_found", "no such identity provider");
  if (!(await ready()).includes(id)) throw new AppError("unavailable", `identity provider ${id} is unavailable: its discovery failed when the gateway started`);
};

/** better-auth calls the provider without a deadline; the browser gets an answer within the budget whatever it does. */
const withinBudget = async (work: Promise<Response>, timeoutMs: number): Promise<Response> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError("timeout", "the identity provider did not answer in time")), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
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
export const authRoutesPlugin = (app: HttpApp, { identity, publicUrl, trustedOrigins, limits, registrationLimit, exchangeLimit, issuedByCode, providerSignIn }: AuthRoutesOptions) => {
  const providerOf = (request: FastifyRequest) => (request.body as { provider: string }).provider;
  const guards: Partial<Record<string, preHandlerAsyncHookHandler[]>> = {
    "/api/auth/sign-in/magic-link": [signInGuard(trustedOrigins, MagicLinkRequest), ...limits],
    "/api/auth/sign-in/social": [signInGuard(trustedOrigins, ProviderSignInRequest), knownProvider(providerSignIn, providerOf), ...providerSignIn.limits],
    "/api/auth/callback/:providerId": [knownProvider(providerSignIn, (request) => (request.params as { providerId: string }).providerId)],
    "/api/auth/magic-link/verify": [exchangeLimit],
    "/api/auth/oauth2/register": [registrationLimit, registrationGuard],
    "/api/auth/oauth2/token": [exchangeLimit],
    "/api/auth/oauth2/revoke": [exchangeLimit, revokeJwt(identity)],
  };
  const signedIn = async (request: FastifyRequest) =>
    (await identity.resolveCaller({ cookie: request.headers.cookie }).catch(() => null)) !== null;
  const replay = codeReplay(issuedByCode, (jti, expiresAt) => identity.revokeAccessTokenId(jti, expiresAt));
  // The plugin's answers the gateway corrects (routes/oauth-edge.ts).
  const answers: Partial<Record<string, (response: Response, request: FastifyRequest) => Promise<Response>>> = {
    "/api/auth/oauth2/authorize": authorizationAnswer(signedIn, publicUrl),
    "/api/auth/oauth2/token": async (response, request) => tokenAnswer(await replay(response, request)),
    "/api/auth/oauth2/revoke": revocationAnswer,
  };
  const budgeted = new Set(["/api/auth/sign-in/social", "/api/auth/callback/:providerId"]);
  void app.register(async (scope) => {
    // The token, revocation and registration endpoints take forms (RFC 6749); better-auth parses them itself.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => done(null, body));
    for (const { method, path, oauth } of authRoutes) {
      scope.route({
        method,
        url: path,
        preHandler: guards[path] ?? [],
        handler: async (request, reply) => {
          const webRequest = toWebRequest(request, publicUrl);
          // The authorization endpoint is a page the browser navigates to: always answered with a redirect (better-auth
          // answers JSON to an in-page fetch, which the gateway's plain pages never make).
          if (oauth) webRequest.headers.delete("sec-fetch-mode");
          const answer = identity.handler(webRequest);
          const response = await (budgeted.has(path) ? withinBudget(answer, providerSignIn.timeoutMs) : answer);
          const correct = answers[path];
          return send(reply, correct ? await correct(response, request) : response, oauth === true);
        },
      });
    }
  });
};
