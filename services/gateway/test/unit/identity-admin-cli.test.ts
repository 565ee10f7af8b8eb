// The admin socket and the create-key CLI, run as a child process the way an operator runs it.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSharedPGlite } from "@fit/db";
import { requestAccountKey } from "../../src/identity/admin-client.ts";
import { startAdminSocket } from "../../src/identity/admin-socket.ts";
import { silentLogger } from "../../src/identity/logger.ts";
import { createIdentityStore } from "../../src/store/identity-store.ts";
import { createTestIdentity, openIdentityDb, type IdentityDb } from "../identity-fixture.ts";

const gatewayDir = fileURLToPath(new URL("../../", import.meta.url));
let h: IdentityDb;
let identity: ReturnType<typeof createTestIdentity>["identity"];
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "fit-identity-"));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  h = await openIdentityDb();
  identity = createTestIdentity(h.store).identity;
});
afterAll(async () => {
  await h.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function runCli(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A clean environment: only what the CLI is documented to read, so the machine's DATABASE_URL cannot leak in.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir };
    execFile(process.execPath, ["--import", "tsx", "src/cli/create-key.ts", ...args], { cwd: gatewayDir, env, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

describe("admin socket", () => {
  it("listens owner-only (0600) and removes its file on close", async () => {
    const socket = path.join(await tempDir(), "gateway-admin.sock");
    const admin = await startAdminSocket({ path: socket, identity, logger: silentLogger });
    expect((await stat(socket)).mode & 0o777).toBe(0o600);
    const issued = await requestAccountKey(socket, "Socket@Example.com", { name: "ops" });
    expect(issued).toMatchObject({ email: "socket@example.com", created: true });
    await admin.close();
    expect(existsSync(socket)).toBe(false);
    await expect(requestAccountKey(socket, "socket@example.com")).resolves.toBeNull();
  });

  it("answers a bad request with the error envelope, not a key", async () => {
    const socket = path.join(await tempDir(), "gateway-admin.sock");
    const admin = await startAdminSocket({ path: socket, identity, logger: silentLogger });
    await expect(requestAccountKey(socket, "not-an-email")).rejects.toThrow(/gateway refused: email/);
    await admin.close();
  });

  it("replaces a socket file left by a gateway that died, and refuses to start beside a live one", async () => {
    const socket = path.join(await tempDir(), "gateway-admin.sock");
    // A process that binds the socket and is killed leaves the file behind.
    const script = `require("net").createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, "SIGKILL"))`;
    await new Promise((resolve) => spawn(process.execPath, ["-e", script]).on("exit", resolve));
    expect(existsSync(socket)).toBe(true);
    const admin = await startAdminSocket({ path: socket, identity, logger: silentLogger });
    await expect(startAdminSocket({ path: socket, identity, logger: silentLogger })).rejects.toThrow(/another running gateway/);
    await expect(requestAccountKey(socket, "stale@example.com")).resolves.toMatchObject({ created: true });
    await admin.close();
  });
});

describe("create-key CLI", () => {
  it("asks the running gateway over its socket and prints only the key on stdout's last line", async () => {
    const dataDir = await tempDir();
    const admin = await startAdminSocket({ path: path.join(dataDir, "gateway-admin.sock"), identity, logger: silentLogger });
    try {
      const run = await runCli(["cli-user@example.com", "--name", "laptop"], dataDir);
      expect(run.stderr).toMatch(/running gateway/);
      // Not "full access": a key without scopes still lacks the granted-only ones.
      expect(run.stderr).toMatch(/new key with every scope but keys and account, shown only now/);
      expect(run.code).toBe(0);
      const key = lastLine(run.stdout);
      expect(key).toMatch(/^fit_[A-Za-z]{64}$/);
      await expect(identity.resolveCaller({ authorization: `Bearer ${key}` })).resolves.toMatchObject({ email: "cli-user@example.com", scopes: null });
      // Nothing was opened on disk: the gateway's database was used.
      expect(existsSync(path.join(dataDir, "gateway"))).toBe(false);
    } finally {
      await admin.close();
    }
  }, 60_000);

  it("opens the embedded database itself when no gateway runs, and leaves no secret behind", async () => {
    const dataDir = await tempDir();
    const run = await runCli(["offline@example.com"], dataDir);
    expect(run.code, run.stderr).toBe(0);
    const key = lastLine(run.stdout);
    expect(key).toMatch(/^fit_/);
    // Issuing a key signs nothing: the session secret stays the launcher's to generate.
    expect(existsSync(path.join(dataDir, "secrets"))).toBe(false);
    // Where `pnpm start` looks: the embedded process's shared PGlite (docs/decisions/0041-one-pglite-for-the-embedded-process.md).
    expect(existsSync(path.join(dataDir, "gateway"))).toBe(false);
    const shared = await openSharedPGlite(path.join(dataDir, "pglite"));
    const store = createIdentityStore(await shared.database("identity"));
    try {
      const caller = await createTestIdentity(store).identity.resolveCaller({ authorization: `Bearer ${key}` });
      expect(caller).toMatchObject({ email: "offline@example.com", scopes: null });
    } finally {
      await store.close();
      await shared.close();
    }
  }, 120_000);

  it("exits non-zero with the usage, printing nothing on stdout, when no email is given", async () => {
    const run = await runCli([], await tempDir());
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/usage: create-key <email>/);
    expect(run.stdout).toBe("");
  }, 60_000);

  it("prints its usage, the default scopes and every scope on --help, and exits 0 without issuing anything", async () => {
    const dataDir = await tempDir();
    const run = await runCli(["--help"], dataDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^usage: create-key <email>/);
    expect(run.stdout).toMatch(/every scope but keys and account/);
    expect(run.stdout).toMatch(/weight:read, weight:write, .*account\./);
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  }, 60_000);
});
