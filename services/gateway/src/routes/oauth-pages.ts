// The two pages of an agent's authorization request, server-rendered plain HTML with everything escaped: sign in
// (an email for a magic link that returns to the request) and consent (allow or deny the client's scopes).
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { AppError, OAuthConsentForm, OAuthSignInForm } from "@fit/contracts";
import { parseOrRefuse } from "@fit/service-kit";
import type { Identity } from "../identity/identity.ts";
import { htmlHeaders, PLAIN_PAGE_CSP } from "./html-headers.ts";

interface PagesOptions {
  identity: Pick<Identity, "auth" | "handler">;
  publicUrl: string;
  trustedOrigins: readonly string[];
  /** The sign-in rate limits (per client address and per email). */
  limits: preHandlerAsyncHookHandler[];
  /** The rate limit of consents, per client address. */
  consentLimit: preHandlerAsyncHookHandler;
}

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One of the gateway's own pages, everything in it escaped by the caller. */
export const pageHtml = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escape(title)}</title></head><body style="font-family:sans-serif;max-width:32em;margin:3em auto">` +
  `<h1>${escape(title)}</h1>${body}</body></html>`;

/** Nothing runs or loads on these pages, and no other site may frame them. */
const page = (reply: FastifyReply, title: string, body: string) =>
  htmlHeaders(reply, PLAIN_PAGE_CSP)
    .type("text/html; charset=utf-8")
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "no-store")
    .send(pageHtml(title, body));

/** The signed authorization request, exactly as the server wrote it after the `?`. */
const rawQuery = (request: FastifyRequest) => request.url.split("?")[1] ?? "";

const hidden = (query: string) => `<input type="hidden" name="oauth_query" value="${escape(query)}">`;

/** Form posts carry an Origin: one that is missing or not ours is a cross-site request. */
const sameSite = (trustedOrigins: readonly string[]) => async (request: FastifyRequest) => {
  const origin = request.headers.origin;
  if (origin === undefined || !trustedOrigins.includes(origin)) throw new AppError("forbidden", "cross-site request refused");
};

export const oauthPageRoutes = async (app: FastifyInstance, { identity, publicUrl, trustedOrigins, limits, consentLimit }: PagesOptions) => {
  const origin = new URL(publicUrl).origin;
  const sessionOf = (request: FastifyRequest) =>
    identity.auth.api.getSession({ headers: new Headers({ cookie: request.headers.cookie ?? "" }), query: { disableRefresh: true } });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get("/oauth/sign-in", async (request, reply) =>
    page(reply, "Sign in to connect an agent",
      `<form method="post" action="/oauth/sign-in">${hidden(rawQuery(request))}` +
      `<label>Email <input type="email" name="email" required autofocus></label> <button>Send me a sign-in link</button></form>`));

  app.post("/oauth/sign-in", { preHandler: [sameSite(trustedOrigins), ...limits] }, async (request, reply) => {
    const form = parseOrRefuse(OAuthSignInForm, request.body);
    // The link signs in, then returns to the authorization request, which goes on to the consent page.
    const callbackURL = `/api/auth/oauth2/authorize?${form.oauth_query}`;
    const response = await identity.handler(new Request(`${origin}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email: form.email, callbackURL }),
    }));
    if (!response.ok) throw new AppError("validation", "could not send a sign-in link");
    return page(reply, "Check your email", `<p>A sign-in link was sent to ${escape(form.email)}. Open it in this browser.</p>`);
  });

  app.get("/oauth/consent", async (request, reply) => {
    const session = await sessionOf(request);
    if (!session) throw new AppError("unauthenticated", "sign in first");
    const query = new URLSearchParams(rawQuery(request));
    const client = await identity.auth.api
      .getOAuthClientPublic({ query: { client_id: query.get("client_id") ?? "" }, headers: new Headers({ cookie: request.headers.cookie ?? "" }) })
      .catch(() => null);
    if (!client) throw new AppError("validation", "unknown client");
    const scopes = (query.get("scope") ?? "").split(" ").filter(Boolean);
    // Where the code goes, and that nobody vouched for the name: every client here registered itself (RFC 7591).
    const redirect = query.get("redirect_uri") ?? "";
    const destination = URL.canParse(redirect) ? new URL(redirect).host : redirect;
    return page(reply, "Allow access?",
      `<p><strong>${escape(client.client_name ?? client.client_id)}</strong> asks to act for ${escape(session.user.email)} with:</p>` +
      `<ul>${scopes.map((scope) => `<li>${escape(scope)}</li>`).join("")}</ul>` +
      `<p>If you allow, access goes to <strong>${escape(destination)}</strong>. This app registered itself: its name is its own claim, not checked by us.</p>` +
      `<form method="post" action="/oauth/consent">${hidden(rawQuery(request))}` +
      `<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form>`);
  });

  app.post("/oauth/consent", { preHandler: [sameSite(trustedOrigins), consentLimit] }, async (request, reply) => {
    const form = parseOrRefuse(OAuthConsentForm, request.body);
    const response = await identity.handler(new Request(`${origin}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie: request.headers.cookie ?? "" },
      body: JSON.stringify({ accept: form.decision === "allow", oauth_query: form.oauth_query }),
    }));
    if (response.status === 401) throw new AppError("unauthenticated", "sign in first");
    const answer = (await response.json().catch(() => ({}))) as { url?: string; redirect_uri?: string };
    const target = response.headers.get("location") ?? answer.url ?? answer.redirect_uri;
    if (!target) throw new AppError("validation", "the authorization request is invalid or has expired");
    return reply.redirect(target, 302);
  });
};
