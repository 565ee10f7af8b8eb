// Where better-auth's OAuth endpoints answer otherwise than the protocol or this platform's rules ask, and the
// plugin has no option for it, the gateway corrects the request or the answer at its edge (docs/security.md
// section 26): registration, the token and revocation answers, and errors of the authorization endpoint.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { decodeJwt } from "jose";
import type { KeyValue } from "@fit/bus";
import { escape, pageHtml } from "./oauth-pages.ts";

const oauthError = (reply: FastifyReply, error: string, description: string) =>
  reply.status(400).header("cache-control", "no-store").send({ error, error_description: description });

/**
 * Client metadata naming a URL the authorization server itself would fetch: the plugin POSTs to
 * backchannel_logout_uri inline when someone signs out, and reads jwks_uri for private_key_jwt. A name that
 * resolves to a private address passes its check, so any self-registered client could make the server call
 * inside its network. This server fetches no URL a client registers. (logo_uri, client_uri, tos_uri and
 * policy_uri are stored, never fetched; request_uri and sector_identifier_uri are not supported by the plugin.)
 */
const FETCHED_URL_FIELDS = ["backchannel_logout_uri", "jwks_uri"] as const;

/** The loopback redirects of RFC 8252 section 7.3 (and 8.3: exactly these hosts; http, any port). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const isLoopbackRedirect = (uri: unknown) => {
  if (typeof uri !== "string" || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
};

/**
 * Dynamic registration (RFC 7591), before the plugin sees it. A client whose redirect URIs are all loopback is a
 * native app (RFC 8252) whether or not it says so: MCP clients, the SDK's own example among them, send no
 * application_type, and the plugin would take them for web clients and refuse them. A client that calls itself a
 * web app, or mixes loopback and other redirects, is refused with a message that says why.
 */
export const registrationGuard = async (request: FastifyRequest, reply: FastifyReply) => {
  const metadata = request.body;
  // A body that is not an object is the plugin's to refuse.
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return;
  const fields = metadata as Record<string, unknown>;
  for (const field of FETCHED_URL_FIELDS) {
    if (fields[field] !== undefined) return oauthError(reply, "invalid_client_metadata", `${field} is not accepted: this server never fetches a URL a client registers`);
  }
  const redirects: unknown[] = Array.isArray(fields.redirect_uris) ? fields.redirect_uris : [];
  const loopback = redirects.filter(isLoopbackRedirect);
  if (loopback.length === 0) return;
  if (fields.application_type === "web") {
    return oauthError(reply, "invalid_redirect_uri", `a loopback redirect URI is for a native app (RFC 8252), not a web client: register ${String(loopback[0])} with application_type native, or without application_type`);
  }
  if (loopback.length < redirects.length) {
    return oauthError(reply, "invalid_redirect_uri", "loopback redirect URIs (a native app, RFC 8252) cannot be mixed with other redirect URIs in one client");
  }
  fields.application_type = "native";
};

const readError = async (response: Response) =>
  (await response.clone().json().catch(() => null)) as { error?: string; error_description?: string } | null;

const withBody = (response: Response, status: number, body: unknown) => {
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  if (status !== 401) headers.delete("www-authenticate");
  return new Response(JSON.stringify(body), { status, headers });
};

/**
 * Token endpoint errors as RFC 6749 section 5.2 and RFC 7636 section 4.6 state them: a code_verifier that does
 * not match is invalid_grant (the plugin says invalid_request), and 401 is for client authentication alone (the
 * plugin answers 401 to PKCE failures).
 */
export const tokenAnswer = async (response: Response) => {
  if (response.status < 400) return response;
  const body = await readError(response);
  if (!body?.error) return response;
  if (body.error === "invalid_request" && body.error_description === "code verification failed") {
    return withBody(response, 400, { error: "invalid_grant", error_description: "code_verifier does not match the code_challenge" });
  }
  return response.status === 401 && body.error !== "invalid_client" ? withBody(response, 400, body) : response;
};

/**
 * Revocation (RFC 7009 section 2.2): a token the server does not know, or cannot read, is answered 200 like a
 * revoked one; only a request without a token, or whose client fails authentication, is an error.
 */
export const revocationAnswer = async (response: Response, request: FastifyRequest) => {
  if (response.status < 400) return response;
  const token = new URLSearchParams(typeof request.body === "string" ? request.body : "").get("token");
  if (!token || (await readError(response))?.error === "invalid_client") return response;
  return withBody(response, 200, {});
};

/**
 * An error of the authorization endpoint goes back to the client's redirect URI (RFC 6749 section 4.1.2.1) only
 * for a person who has signed in. Before that it is shown here: anyone may register a client with any redirect
 * URI, so redirecting an anonymous browser would make this origin an open redirector (RFC 9700 section 4.11.2).
 * Errors about the client or its redirect URI are never redirected (the plugin shows them on its error page).
 */
export const authorizationAnswer = (signedIn: (request: FastifyRequest) => Promise<boolean>, publicUrl: string) => {
  const origin = new URL(publicUrl).origin;
  return async (response: Response, request: FastifyRequest) => {
    const location = response.headers.get("location");
    if (response.status !== 302 || !location || !URL.canParse(location)) return response;
    const target = new URL(location);
    const error = target.searchParams.get("error");
    if (target.origin === origin || !error || (await signedIn(request))) return response;
    const description = target.searchParams.get("error_description") ?? error;
    return new Response(
      pageHtml("This request cannot go on", `<p>The app that sent you here made an invalid request: ${escape(description)}.</p><p>Nothing was shared. You can close this page.</p>`),
      { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
    );
  };
};

/** The id and expiry of a JWT access token the plugin just issued; null for an opaque one. */
const jwtClaims = (token: string) => {
  try {
    const { jti, exp } = decodeJwt(token);
    return typeof jti === "string" && typeof exp === "number" ? { jti, exp } : null;
  } catch {
    return null;
  }
};

/**
 * A code used twice is a stolen code or a replaying client: the second use fails, and what the first bought ends
 * too (OAuth 2.1 section 4.1.3). The plugin deletes the refresh tokens it issued for the code, but the access
 * token is a JWT it never stored: the gateway notes which one each code bought (its id and expiry, under the
 * code's hash, in the bus's shared key-value bucket, so every replica knows; kept as long as an access token
 * lives) and revokes it when the code comes back.
 */
export const codeReplay = (issued: KeyValue, revoke: (jti: string, expiresAt: Date) => Promise<void>) =>
  async (response: Response, request: FastifyRequest) => {
    const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    const code = form.get("code");
    if (form.get("grant_type") !== "authorization_code" || !code) return response;
    const key = createHash("sha256").update(code).digest("base64url");
    if (response.ok) {
      const { access_token } = (await response.clone().json()) as { access_token: string };
      // An opaque token (asked for without `resource`) is stored by the plugin, which deletes it itself.
      const claims = jwtClaims(access_token);
      if (claims) await issued.compareAndSet(key, JSON.stringify(claims), null);
    } else if ((await readError(response))?.error === "invalid_grant") {
      const bought = await issued.get(key);
      if (bought) {
        const { jti, exp } = JSON.parse(bought.value) as { jti: string; exp: number };
        await revoke(jti, new Date(exp * 1000));
      }
    }
    return response;
  };
