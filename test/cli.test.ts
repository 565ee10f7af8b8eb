// The command-line client as people and scripts run it: the compiled `fit` binary as a child process, against
// the whole platform over HTTP (no mocked client).
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentScopes, scopes } from "@fit/contracts";
import { makeFit, makeGpx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { freePort } from "@fit/testing";
import { buildCli, fitBinary, runFit } from "./support/cli.ts";
import { client } from "./support/http.ts";
import { signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;
let home: string;
let key: string;

/** Runs `fit` with a config folder of this test's own and no FIT_* variables unless given. */
const fit = (args: string[], options: { env?: Record<string, string>; input?: string; configHome?: string } = {}) =>
  runFit(args, { home, ...options });

/** `fit` with the server and key in the environment, as a script would run it. */
const as = (apiKey: string) => (args: string[]) => fit(args, { env: { FIT_URL: system.url, FIT_API_KEY: apiKey } });

beforeAll(async () => {
  await buildCli();
  // A dashboard slowed by a busy machine answers 503 by design; `fit today` and `fit dashboard` are not about that.
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { DASHBOARD_TIMEOUT_MS: "30000" } });
  home = await mkdtemp(join(tmpdir(), "fit-cli-"));
  key = (await system.account()).key;
});
afterAll(async () => {
  await system?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe("fit login and logout", () => {
  it("checks the key, keeps it with the URL in an owner-only config file, and uses it afterwards", async () => {
    const configHome = join(home, "login");
    const login = await fit(["login", "--url", system.url, "--key", key], { configHome });
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    const path = join(configHome, "fit", "config.json");
    expect(login.stdout).toContain(`Logged in to ${system.url}`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ url: system.url, key });

    const logged = await fit(["weight", "add", "80.2", "--json"], { configHome });
    expect(logged.code).toBe(0);
    expect(JSON.parse(logged.stdout)).toEqual({ ok: true, id: expect.any(String) });

    const logout = await fit(["logout"], { configHome });
    expect(logout.code).toBe(0);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ url: system.url });
    const after = await fit(["weight", "list"], { configHome });
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/not logged in: run `fit login`/);
  });

  it("reads a pasted key from standard input, keeping the server logged in to before", async () => {
    const configHome = join(home, "pasted");
    expect((await fit(["login", "--url", system.url, "--key", key], { configHome })).code).toBe(0);
    const other = (await system.account()).key;
    const login = await fit(["login", "--with-key"], { configHome, input: `${other}\n` });
    expect(login.code).toBe(0);
    expect(JSON.parse(await readFile(join(configHome, "fit", "config.json"), "utf8"))).toEqual({ url: system.url, key: other });
  });

  it("refuses a key the server does not know, with the server's message and exit 3, and keeps nothing", async () => {
    const configHome = join(home, "refused");
    const login = await fit(["login", "--url", system.url, "--key", "fit_not-a-real-key"], { configHome });
    expect(login.code).toBe(3);
    expect(login.stderr).toMatch(/^fit: API key /);
    await expect(stat(join(configHome, "fit", "config.json"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a config file that others can read, naming the chmod that fixes it", async () => {
    const configHome = join(home, "open");
    expect((await fit(["login", "--url", system.url, "--key", key], { configHome })).code).toBe(0);
    const path = join(configHome, "fit", "config.json");
    await chmod(path, 0o644);
    const run = await fit(["weight", "list"], { configHome });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`mode 644); run: chmod 600 ${path}`);
    expect(run.stdout).toBe("");
  });

  it("makes its folder 0700 even when it was there before, and replaces the file with a new one made 0600", async () => {
    const configHome = join(home, "replaced");
    const folder = join(configHome, "fit");
    const path = join(folder, "config.json");
    await mkdir(folder, { recursive: true });
    await chmod(folder, 0o755);
    await writeFile(path, `${JSON.stringify({ url: system.url })}\n`, { mode: 0o600 });
    const before = await stat(path);
    expect((await fit(["login", "--url", system.url, "--key", key], { configHome })).code).toBe(0);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const after = await stat(path);
    expect(after.mode & 0o777).toBe(0o600);
    // A new file renamed into place: the old one was never rewritten in place, nor a temporary one left behind.
    expect(after.ino).not.toBe(before.ino);
    expect(await readdir(folder)).toEqual(["config.json"]);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ url: system.url, key });
  });

  it("takes --url and --key over FIT_URL and FIT_API_KEY over the config file", async () => {
    const configHome = join(home, "precedence");
    expect((await fit(["login", "--url", system.url, "--key", key], { configHome })).code).toBe(0);
    const badEnv = { FIT_API_KEY: "fit_wrong" };
    expect((await fit(["weight", "list"], { configHome, env: badEnv })).code).toBe(3);
    expect((await fit(["weight", "list", "--key", key], { configHome, env: badEnv })).code).toBe(0);
  });
});

/**
 * `fit login --no-browser`, with this test as the person at the browser: signed in already (a session cookie), it
 * opens the address the CLI prints, allows on the consent page, and either lets the browser follow the redirect to
 * the CLI's loopback listener or pastes the address it ended on into the CLI (a browser on another machine).
 */
const browserLogin = async (configHome: string, email: string, { paste = false, answer = (url: string) => url } = {}) => {
  const child = spawn(process.execPath, [fitBinary, "login", "--url", system.url, "--no-browser"], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: configHome, TZ: "UTC" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const printed = new Promise<string>((resolve) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const url = /(http\S+\/api\/auth\/oauth2\/authorize\?\S+)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const authorize = new URL(await Promise.race([printed, exited.then(() => Promise.reject(new Error(`fit login exited: ${stderr}`)))]));
  const cookie = await signIn(system.url, email);
  const browse = (url: string, init: RequestInit = {}) =>
    fetch(new URL(url, system.url), { ...init, redirect: "manual", headers: { accept: "text/html", cookie, ...(init.headers as Record<string, string>) } });
  const consent = (await browse(authorize.toString())).headers.get("location") ?? "";
  expect(consent).toContain("/oauth/consent");
  const decided = await browse("/oauth/consent", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(system.url).origin },
    body: new URLSearchParams({ decision: "allow", oauth_query: consent.split("?")[1] ?? "" }).toString(),
  });
  const callback = answer(decided.headers.get("location") ?? "");
  expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  if (paste) child.stdin.write(`${callback}\n`);
  else expect((await fetch(callback)).status).toBeLessThan(500);
  child.stdin.end();
  return { code: await exited, stdout, stderr, authorize };
};

const storedConfig = async (configHome: string) => JSON.parse(await readFile(join(configHome, "fit", "config.json"), "utf8"));

describe("fit login through the browser", () => {
  it("asks as a public native client with PKCE for every agent scope, caches the tokens 0600, and refreshes them", async () => {
    const configHome = join(home, "browser");
    const { email } = await system.account();
    const login = await browserLogin(configHome, email);
    expect(login.stderr).toContain("Open this address in a browser");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${system.url} as ${email}`);
    const params = login.authorize.searchParams;
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(params.get("resource")).toBe(`${system.url}/mcp`);
    expect(params.get("scope")?.split(" ").sort()).toEqual([...agentScopes, "offline_access"].sort());

    const path = join(configHome, "fit", "config.json");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const first = await storedConfig(configHome);
    expect(first).toEqual({ url: system.url, oauth: expect.objectContaining({ accessToken: expect.any(String), refreshToken: expect.any(String) }) });
    expect((await fit(["weight", "add", "80.5"], { configHome })).code).toBe(0);
    const today = await fit(["today"], { configHome });
    expect(today.stderr).toBe("");
    expect(today.code).toBe(0);

    // Expired: the next command refreshes first, and keeps the rotated refresh token.
    await writeFile(path, JSON.stringify({ ...first, oauth: { ...first.oauth, expiresAt: 0 } }));
    const listed = await fit(["weight", "list", "--json"], { configHome });
    expect(listed.stderr).toBe("");
    expect(JSON.parse(listed.stdout).items).toEqual([expect.objectContaining({ weightKg: 80.5 })]);
    const second = await storedConfig(configHome);
    expect(second.oauth.accessToken).not.toBe(first.oauth.accessToken);
    expect(second.oauth.refreshToken).not.toBe(first.oauth.refreshToken);
    expect(second.oauth.expiresAt).toBeGreaterThan(Date.now());
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    // Commands started together refresh once: a refresh token spent twice would be a replay that ends the grant.
    await writeFile(path, JSON.stringify({ ...second, oauth: { ...second.oauth, expiresAt: 0 } }));
    const together = await Promise.all([1, 2, 3].map(() => fit(["weight", "list", "--json"], { configHome })));
    expect(together.map((run) => [run.code, run.stderr])).toEqual([[0, ""], [0, ""], [0, ""]]);
    const third = await storedConfig(configHome);
    await writeFile(path, JSON.stringify({ ...third, oauth: { ...third.oauth, expiresAt: 0 } }));
    expect((await fit(["weight", "list"], { configHome })).code).toBe(0);

    // A refresh the server refuses (revoked, replayed, expired) ends in one instruction, not a stack.
    await writeFile(path, JSON.stringify({ ...second, oauth: { ...second.oauth, refreshToken: "not-a-refresh-token", expiresAt: 0 } }));
    const refused = await fit(["weight", "list"], { configHome });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^fit: the sign-in has expired or was revoked: run fit login again/);
  });

  it("takes the address pasted back from a browser elsewhere, and logout ends the grant on the server", async () => {
    const configHome = join(home, "pasted-back");
    const { email } = await system.account();
    const login = await browserLogin(configHome, email, { paste: true });
    expect(login.code).toBe(0);
    const { oauth } = await storedConfig(configHome);
    expect((await client(system.url, oauth.accessToken).get("/api/dashboard")).status).toBe(200);
    const logout = await fit(["logout"], { configHome });
    expect(logout.stdout).toContain("the sign-in is ended on the server");
    expect(await storedConfig(configHome)).toEqual({ url: system.url });
    expect((await client(system.url, oauth.accessToken).get("/api/dashboard")).status).toBe(401);
    const refresh = await fetch(oauth.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: oauth.refreshToken, client_id: oauth.clientId }).toString(),
    });
    expect(refresh.status).toBe(400);
  });

  it("refuses an answer whose state is not the one it sent", async () => {
    const configHome = join(home, "forged");
    const login = await browserLogin(configHome, (await system.account()).email, { paste: true, answer: (url) => url.replace(/state=[^&]+/, "state=forged") });
    expect(login.code).toBe(3);
    expect(login.stderr).toMatch(/state differs/);
    await expect(stat(join(configHome, "fit", "config.json"))).rejects.toThrow(/ENOENT/);
  });
});

describe("fit weight", () => {
  it("adds a weigh-in with fat, note and time, and lists it in a table and as JSON", async () => {
    const run = as((await system.account()).key);
    const added = await run(["weight", "add", "81.4", "--fat", "18", "--note", "after run", "--at", "2026-11-20T07:30:00Z"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Logged 81.4 kg, 18 % fat \(id [0-9a-f-]{36}\)\n$/);

    const table = await run(["weight", "list"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ 2026-11-20 07:30 │ 81\.4 │ 18\s+│ after run │ manual │/);

    const json = await run(["weight", "list", "--json"]);
    expect(JSON.parse(json.stdout).items).toEqual([
      expect.objectContaining({ weightKg: 81.4, bodyFatPct: 18, note: "after run", ts: Date.parse("2026-11-20T07:30:00Z") }),
    ]);
  });

  it("deletes a weigh-in by id; an id it no longer has is exit 4 with the API's message", async () => {
    const run = as((await system.account()).key);
    const { id } = JSON.parse((await run(["weight", "add", "80", "--json"])).stdout);
    expect(await run(["weight", "delete", id])).toMatchObject({ code: 0, stdout: `Deleted weigh-in ${id}\n` });
    const again = await run(["weight", "delete", id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^fit: .*not found/);
    const notAnId = await run(["weight", "delete", "yesterday"]);
    expect(notAnId).toMatchObject({ code: 2, stderr: "fit: id must be a UUID\n" });
  });

  it("refuses input the contract refuses before sending anything (exit 2, the contract's message)", async () => {
    // A closed port: had a request been sent, this would be exit 5.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await fit(["weight", "add", "500kg", "--url", closed, "--key", key]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("fit: weightKg must be between 9 and 320 kg\n");
    const notANumber = await fit(["weight", "add", "heavy", "--url", closed, "--key", key]);
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain("not a number");
  });
});

describe("fit food, today, targets and dashboard", () => {
  it("logs food, sets targets keeping the ones not named, and shows the day and the dashboard", async () => {
    const run = as((await system.account()).key);
    const food = await run(["food", "add", "oats", "--kcal", "380", "--protein", "13", "--meal", "breakfast", "--date", "2026-11-25", "--json"]);
    expect(food.code).toBe(0);
    expect(JSON.parse(food.stdout)).toMatchObject({ name: "oats", kcal: 380, proteinG: 13, meal: "breakfast", date: "2026-11-25" });
    expect((await run(["food", "add", "eggs", "--kcal", "150", "--protein", "12", "--date", "2026-11-25"])).stdout)
      .toBe("Logged eggs: 150 kcal, 12 g protein (no meal, 2026-11-25)\n");

    expect((await run(["targets", "set", "--kcal", "2200"])).code).toBe(0);
    const targets = await run(["targets", "set", "--protein", "140", "--json"]);
    expect(JSON.parse(targets.stdout)).toMatchObject({ dailyKcalTarget: 2200, proteinTargetG: 140, goalWeightKg: null });

    const today = await run(["today", "--date", "2026-11-25"]);
    expect(today.code).toBe(0);
    expect(today.stdout).toMatch(/│ breakfast │ oats\s+│ 380\s+│ 13\s+│/);
    expect(today.stdout).toContain("2026-11-25: 530 of 2200 kcal · 25 of 140 g protein · – fat · – carbs · – fiber (2 items without them) · under target");
    const todayJson = JSON.parse((await run(["today", "--date", "2026-11-25", "--json"])).stdout);
    expect(todayJson.total).toMatchObject({ kcal: 530, proteinG: 25, adherence: "under", hitProtein: false });
    expect(todayJson.items).toHaveLength(2);

    await run(["weight", "add", "81.4", "--fat", "18", "--at", "2026-11-25T07:00:00Z"]);
    const dashboard = await run(["dashboard", "--date", "2026-11-25"]);
    expect(dashboard.code).toBe(0);
    expect(dashboard.stdout).toContain("81.4 kg (7-day average 81.4 kg) · 18 % fat");
    expect(dashboard.stdout).toContain("2200 kcal · 140 g protein");
    expect(dashboard.stdout).toContain("530 kcal · 25 g protein · – fat · – carbs · – fiber (2 items without them) · under target");
    const json = JSON.parse((await run(["dashboard", "--date", "2026-11-25", "--json"])).stdout);
    expect(json).toMatchObject({ weight: { latestKg: 81.4 }, nutritionToday: { kcal: 530 }, workoutsThisWeek: { count: 0 } });
  });
});

describe("control characters in stored data", () => {
  // Clear the screen, set the window title, ring the bell, and an 8-bit CSI (C1): what a hostile note might carry.
  const hostile = "\u001b[2J\u001b]0;owned\u0007 \u009b31m \r\u007f end";
  // eslint-disable-next-line no-control-regex -- what must not be printed
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it("are shown as \\xNN in every table and line, and escaped in --json and the export, keeping the value", async () => {
    const email = `cli-controls-${Date.now()}@example.com`;
    const run = as((await system.key(email, { scopes: [...scopes] })).key);
    expect((await run(["weight", "add", "80", "--note", hostile, "--at", "2026-11-25T07:00:00Z"])).code).toBe(0);
    const food = await run(["food", "add", `oats ${hostile}`, "--kcal", "300", "--protein", "10", "--date", "2026-11-25"]);
    expect(food.code).toBe(0);
    for (const printed of [food, await run(["weight", "list"]), await run(["today", "--date", "2026-11-25"]), await run(["dashboard", "--date", "2026-11-25"])]) {
      expect(printed.stdout).not.toMatch(raw);
      expect(printed.stdout).toContain("\\x1b[2J\\x1b]0;owned\\x07 \\x9b31m \\x0d\\x7f end");
    }
    const json = await run(["weight", "list", "--json"]);
    expect(json.stdout.replaceAll("\n", "")).not.toMatch(raw);
    expect(JSON.parse(json.stdout).items[0].note).toBe(hostile);
    const exported = await run(["export"]);
    expect(exported.code).toBe(0);
    expect(exported.stdout.replaceAll("\n", "")).not.toMatch(raw);
    expect(JSON.parse(exported.stdout).weighIns[0].note).toBe(hostile);
  });
});

describe("fit workouts describe", () => {
  it("logs a workout from words", async () => {
    const run = as((await system.account()).key);
    const described = await run(["workouts", "describe", "ran 5k in 25 min", "--json"]);
    expect(described.code).toBe(0);
    expect(JSON.parse(described.stdout)).toMatchObject({ activityType: "run", distanceM: 5000, durationS: 1500, source: "manual" });
    const line = await run(["workouts", "describe", "ran 5k in 25 min"]);
    expect(line.stdout).toMatch(/^Logged run: 5\.00 km in 25:00, \d+ kcal \(estimated \d+–\d+\)/);
    const list = await run(["workouts", "list", "--json"]);
    expect(JSON.parse(list.stdout).items).toHaveLength(2);
  });

  it("prints the API's error message and exits 1 when the server refuses the text", async () => {
    const described = await as(key)(["workouts", "describe", "felt great today"]);
    expect(described.code).toBe(1);
    expect(described.stderr).toMatch(/^fit: .+\n$/);
    expect(described.stderr).not.toContain("{");
  });
});

describe("fit import", () => {
  it("imports generated GPX and FIT files as workouts with a progress bar, and reports each file", async () => {
    const run = as((await system.account()).key);
    const folder = await mkdtemp(join(home, "import-"));
    const files: string[] = [];
    for (let i = 0; i < 3; i++) {
      const track = straightTrack({ start: new Date(Date.UTC(2026, 10, 20 + i, 7)), points: 60, stepM: 50, stepS: 15 });
      const file = join(folder, `run-${i}.gpx`);
      await writeFile(file, makeGpx(track, { name: `Run ${i}`, type: "running" }));
      files.push(file);
    }
    const ride = join(folder, "ride.fit");
    await writeFile(ride, makeFit({ sport: "cycling", start: new Date(Date.UTC(2026, 10, 23, 17)), elapsedS: 3600, timerS: 3500, distanceM: 30_000, calories: 800 }));
    files.push(ride);
    const imported = await run(["import", ...files, "--json"]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain("importing [");
    expect(imported.stderr).toContain("4/4");
    const outcomes = JSON.parse(imported.stdout);
    expect(outcomes.map((o: { result: string }) => o.result)).toEqual(["created", "created", "created", "created"]);
    expect(outcomes[0].detail).toMatchObject({ activityType: "run", distanceM: expect.closeTo(2950, -1) });
    expect(outcomes[3].detail).toMatchObject({ activityType: "ride", distanceM: 30_000, energyKcal: 800, durationS: 3600 });

    const again = await run(["import", files[0]!]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toMatch(/run-0\.gpx │ updated │ run: 2\.95 km/);
  });

  it("reads every activity file before sending any: one missing is exit 2 and nothing is stored", async () => {
    const run = as((await system.account()).key);
    const folder = await mkdtemp(join(home, "bad-"));
    const gpx = join(folder, "run.gpx");
    await writeFile(gpx, makeGpx(straightTrack({ start: new Date(Date.UTC(2026, 10, 20, 7)), points: 10, stepM: 50, stepS: 15 }), { name: "Run", type: "running" }));
    const missing = await run(["import", gpx, join(folder, "gone.fit")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`fit: ${join(folder, "gone.fit")}: ENOENT\n`);
    expect(JSON.parse((await run(["workouts", "list", "--json"])).stdout).items).toEqual([]);
  });
});

describe("fit export", () => {
  it("writes everything stored as JSON with a key granted the account scope", async () => {
    const email = `cli-export-${Date.now()}@example.com`;
    const full = await system.key(email, { scopes: [...scopes] });
    await as(full.key)(["weight", "add", "79.9"]);
    const exported = await as(full.key)(["export"]);
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.account.email).toBe(email);
    expect(document.weighIns).toEqual([expect.objectContaining({ weightKg: 79.9 })]);
  });

  it("exits 3 with the server's message when the key lacks the account scope", async () => {
    const run = await as(key)(["export"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^fit: .*scope/);
    expect(run.stdout).toBe("");
  });
});

describe("exit codes", () => {
  it("5 when the server cannot be reached, 2 for an unknown command, 0 for help", async () => {
    const down = await fit(["weight", "list", "--url", `http://127.0.0.1:${await freePort()}`, "--key", key]);
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/^fit: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
    expect((await fit(["weigh", "add", "80"])).code).toBe(2);
    const help = await fit(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: fit");
  });

  it("3 for a key the server refuses, with its message", async () => {
    const run = await as("fit_revoked-or-never-issued")(["dashboard"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^fit: API key /);
  });
});
