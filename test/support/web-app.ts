// What the browser test needs before it starts: the web app built (when its build is missing or older than its
// sources) and Debian's Chromium (installed with apt when missing; a test never downloads a browser).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { printedLink } from "./sign-in.ts";
import { startSystem, type System } from "./system.ts";

const APP = fileURLToPath(new URL("../../apps/web/", import.meta.url));
const WEB_APP_DIST = join(APP, "dist");
const CHROMIUM = "/usr/bin/chromium";

const newestIn = (path: string): number =>
  statSync(path).isDirectory() ? Math.max(0, ...readdirSync(path).map((name) => newestIn(join(path, name)))) : statSync(path).mtimeMs;

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
};

/** Builds apps/web unless dist/ is newer than every source the build reads. */
export const ensureWebAppBuilt = () => {
  const index = join(WEB_APP_DIST, "index.html");
  const sources = ["src", "index.html", "vite.config.ts", "package.json"].map((name) => newestIn(join(APP, name)));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources)) return;
  // vitest sets NODE_ENV=test, which would give a development build: the test measures what is deployed.
  run(process.execPath, [join(APP, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], APP, { ...process.env, NODE_ENV: "production" });
};

/** The JavaScript a first load fetches (the entry script and what it preloads), gzip-compressed, in bytes. */
export const firstLoadJsGzipBytes = () => {
  const html = readFileSync(join(WEB_APP_DIST, "index.html"), "utf8");
  const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  if (scripts.length === 0) throw new Error("index.html names no script");
  return scripts.reduce((total, file) => total + gzipSync(readFileSync(join(WEB_APP_DIST, file)), { level: 9 }).length, 0);
};

/** Headless Debian Chromium, as root, with a fresh profile and no calls home (the machine's network is closed). */
export const launchChromium = async (profileDir: string): Promise<BrowserContext> => {
  if (!existsSync(CHROMIUM)) {
    const install = spawnSync("apt-get", ["install", "-y", "chromium"], { encoding: "utf8" });
    if (install.status !== 0) run("sh", ["-c", "apt-get update && apt-get install -y chromium"], "/");
  }
  // Playwright passes the fresh profile as --user-data-dir itself.
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync",
    ],
  });
};

/** A browser test's window: a fresh profile, one page at desktop size, and the Content-Security-Policy reports it logs. */
export interface BrowserWindow {
  page: Page;
  cspViolations: string[];
  close(): Promise<void>;
}

export const openBrowserWindow = async (): Promise<BrowserWindow> => {
  const profile = mkdtempSync(join(tmpdir(), "fit-chromium-"));
  const context = await launchChromium(profile);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 1280, height: 860 });
  const cspViolations: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return {
    page,
    cspViolations,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
};

/** Signs `email` in on `page` as a person would: asks for a link, follows the one the platform printed, lands on Home. */
const signInOnPage = async (page: Page, baseUrl: string, email: string) => {
  const link = await printedLink(email, async () => {
    const asked = await fetch(`${baseUrl}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ email, callbackURL: "/" }),
    });
    if (asked.status !== 200) throw new Error(`asking for a sign-in link answered ${asked.status}`);
  });
  await page.goto(link);
  await page.getByRole("heading", { name: "Home" }).waitFor();
};

/**
 * For the calling describe block: the web app built, the whole platform started, and a browser window signed in as
 * `email`, all closed after its tests; the platform gets `env()`'s variables, read then. `page`, `system` and the
 * page's `cspViolations` are there once its tests run.
 */
export const signedInWebApp = (email: string, env: () => Record<string, string> = () => ({})) => {
  const web = {} as { page: Page; system: System; cspViolations: string[] };
  let browser: BrowserWindow | undefined;
  beforeAll(async () => {
    ensureWebAppBuilt();
    web.system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: env() });
    browser = await openBrowserWindow();
    web.page = browser.page;
    web.cspViolations = browser.cspViolations;
    await signInOnPage(web.page, web.system.url, email);
  });
  afterAll(async () => {
    await browser?.close();
    await web.system?.stop();
  });
  return web;
};
