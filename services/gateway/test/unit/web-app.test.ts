// The gateway's side of the web app, on a build of its own: what is cached for how long, what falls back to the
// app, what stays a 404, and a missing build said plainly rather than a crash.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp } from "@fit/service-kit";
import { webAppRoutes } from "../../src/routes/web-app.ts";

const gatewayWith = async (dir: string, providers: string[] = [], signInLink: "email" | "console" = "console") => {
  const app = createHttpApp({ name: "gateway", logger: false, readiness: async () => {} });
  await app.register(webAppRoutes, { dir, providers, signInLink });
  return app;
};

describe("the web app's routes", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fit-web-dist-"));
    await mkdir(join(dir, "assets"));
    await writeFile(join(dir, "index.html"), '<!doctype html><meta name="fit-providers" content=""><meta name="fit-sign-in-link" content="email"><script type="module" src="/assets/index-abc123.js"></script>');
    await writeFile(join(dir, "assets", "index-abc123.js"), "console.log('app')");
    await writeFile(join(dir, "assets", "index-abc123.js.br"), brotliCompressSync("console.log('app')"));
    await writeFile(join(dir, "assets", "favicon-abc123.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("serves index.html revalidated on every load, under a policy that allows only this origin's scripts", async () => {
    const app = await gatewayWith(dir, ["oidc", "github"]);
    const page = await app.inject({ url: "/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/);
    expect(page.body).toContain('<meta name="fit-providers" content="oidc,github">');
    expect(page.body).toContain('<meta name="fit-sign-in-link" content="console">');
    await app.close();
  });

  it("tells the app a magic link is mailed only when a mail transport is configured", async () => {
    const app = await gatewayWith(dir, [], "email");
    expect((await app.inject({ url: "/" })).body).toContain('<meta name="fit-sign-in-link" content="email">');
    await app.close();
  });

  it("caches hashed assets for a year as immutable, sending the precompressed copy a browser accepts", async () => {
    const app = await gatewayWith(dir);
    const compressed = await app.inject({ url: "/assets/index-abc123.js", headers: { "accept-encoding": "br, gzip" } });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const asset = await app.inject({ url: "/assets/index-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await app.inject({ url: "/assets/index-gone.js" })).statusCode).toBe(404);
    const icon = await app.inject({ url: "/assets/favicon-abc123.svg" });
    expect(icon.headers["content-type"]).toBe("image/svg+xml");
    expect(icon.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(icon.headers["x-content-type-options"]).toBe("nosniff");
    await app.close();
  });

  it("answers the app for a client route, and a 404 for the server's paths and for missing files", async () => {
    const app = await gatewayWith(dir);
    for (const url of ["/food?date=2026-11-20", "/settings", "/weight/anything"]) {
      const page = await app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"], url).toContain("text/html");
    }
    for (const url of ["/api/weight", "/mcp/x", "/oauth/other", "/.well-known/other", "/openapi.json", "/favicon.ico"]) {
      const answer = await app.inject({ url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ error: "not found" });
    }
    expect((await app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok", service: "gateway" });
    await app.close();
  });

  it("says at / that the app is not built when its build is missing, and keeps running", async () => {
    const app = await gatewayWith(join(dir, "missing"));
    const page = await app.inject({ url: "/" });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain("The web app is not built");
    expect(page.body).toContain("pnpm --filter @fit/web build");
    expect((await app.inject({ url: "/settings" })).statusCode).toBe(503);
    await app.close();
  });
});
