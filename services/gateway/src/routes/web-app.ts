// The web app (apps/web) at `/`: its hashed assets cached for good, index.html revalidated on every load, and
// index.html for any client route, so a bookmarked /food?date=… opens the app (docs/decisions/0029-web-app.md).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { AppError } from "@fit/contracts";
import { htmlHeaders } from "./html-headers.ts";

interface WebAppOptions {
  /** The app's build (index.html and assets/). */
  dir: string;
  /** Identity providers the app offers beside the magic link, written into index.html. */
  providers: readonly string[];
  /**
   * Where a magic link goes (SMTP_URL set: by email; otherwise onto the server's console), written into index.html
   * so the sign-in page says truthfully where to look.
   */
  signInLink: "email" | "console";
}

/**
 * Scripts, styles and requests only from this origin, nothing inline, no plugins, no framing: an injected
 * string can neither run nor send the session's data elsewhere.
 */
const WEB_APP_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join("; ");

/** Paths that belong to the API, the agents' doors and the probes: an unknown one stays a 404, never the app. */
const SERVER_PATHS = /^\/(api|mcp|oauth|\.well-known)(\/|$)|^\/(openapi\.json|healthz|readyz)$/;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const html = (reply: FastifyReply, status: number, body: string) =>
  htmlHeaders(reply, WEB_APP_CSP)
    .status(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("referrer-policy", "same-origin")
    .send(body);

export const webAppRoutes = async (app: FastifyInstance, { dir, providers, signInLink }: WebAppOptions) => {
  const indexFile = join(dir, "index.html");
  const index = existsSync(indexFile)
    ? readFileSync(indexFile, "utf8")
      .replace(/<meta name="fit-providers" content="[^"]*">/, `<meta name="fit-providers" content="${escape(providers.join(","))}">`)
      .replace(/<meta name="fit-sign-in-link" content="[^"]*">/, `<meta name="fit-sign-in-link" content="${signInLink}">`)
    : null;
  const page =
    index ??
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head><body>` +
      `<h1>The web app is not built</h1><p>This gateway found no build in <code>${escape(dir)}</code>. Run ` +
      `<code>pnpm --filter @fit/web build</code> (<code>pnpm install</code> runs it too), then restart the gateway. ` +
      `The API works meanwhile: see <a href="/openapi.json">/openapi.json</a>.</p></body></html>`;
  const status = index ? 200 : 503;

  if (index) {
    await app.register(fastifyStatic, {
      root: join(dir, "assets"),
      prefix: "/assets/",
      index: false,
      // The build writes .br and .gz copies of each script and stylesheet; a browser gets the smallest it takes.
      preCompressed: true,
      // Every file name carries its content hash: a new build is new names, so a copy never needs checking.
      immutable: true,
      maxAge: "365d",
    });
    // An image opened on its own is a document: an SVG (the favicon) may then run nothing and load nothing.
    app.addHook("onSend", async (request, reply) => {
      if (!request.url.startsWith("/assets/")) return;
      reply.header("x-content-type-options", "nosniff");
      if (/\.svg(\?|$)/.test(request.url)) reply.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    });
  }
  app.get("/", async (_request, reply) => html(reply, status, page));
  app.get("/*", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    // A file that is not there (favicon.ico, a stale asset) is a 404 rather than a page of HTML.
    if (SERVER_PATHS.test(path) || /\.[a-z0-9]+$/i.test(path)) throw new AppError("not_found", "not found");
    return html(reply, status, page);
  });
};
