// The secrets infra/make-secrets.sh writes are ones the real NATS server starts with: it reads each NATS password
// from its environment as a configuration value, and one that starts with a digit is lexed as a number and
// refused (the container tier's NATS crash-looped on about half of fresh clones before the passwords began
// with a letter).
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The server the bus's permission test runs too (packages/bus/test/integration/nats-permissions.test.ts). */
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? "nats-server";
const RUNS = 12;

describe("make-secrets.sh", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "fit-make-secrets-"));
    // A certificate already there: the script keeps it, so only the env file is made (no openssl key generation).
    await writeFile(path.join(dir, "server.crt"), "");
    // The server's own include, beside it as in the image (an include's path is relative to the including file).
    await copyFile(path.join(ROOT, "infra/nats/authorization.conf"), path.join(dir, "authorization.conf"));
    await writeFile(path.join(dir, "nats.conf"), 'port: -1\ninclude "./authorization.conf"\n');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`writes NATS passwords the NATS server accepts in its configuration (${RUNS} fresh sets)`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const envFile = path.join(dir, `${run}.env`);
      await exec("bash", [path.join(ROOT, "infra/make-secrets.sh")], { env: { ...process.env, ENV_FILE: envFile, TLS_DIR: dir } });
      const secrets = Object.fromEntries(
        (await readFile(envFile, "utf8")).split("\n").filter(Boolean).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      const nats = Object.entries(secrets).filter(([name]) => name.startsWith("NATS_PASSWORD_"));
      expect(nats).toHaveLength(7);
      const checked = await exec(NATS_SERVER, ["-t", "-c", path.join(dir, "nats.conf")], { env: { ...process.env, ...secrets } }).then(
        () => "accepted",
        (error: Error & { stderr?: string }) => error.stderr ?? error.message,
      );
      expect(checked, `run ${run}: ${nats.map(([, value]) => value).join(" ")}`).toBe("accepted");
    }
  });
});
