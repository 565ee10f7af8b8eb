// The container engine and the compose cluster as the container tier drives them: the same commands a person
// types (docker, docker-compose), run from the repository's root.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const run = async (file: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const { stdout } = await exec(file, args, { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
};

export const engineAnswers = () => run("docker", ["info", "--format", "{{.ServerVersion}}"]).then(() => true, () => false);

/** Builds the stand-in base images that are missing (the script skips those that exist). */
export const buildBaseImages = () => run("bash", ["infra/images/build-base-images.sh"]);

export const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`waited ${timeoutMs / 1000} s for ${what}${last ? `; last error: ${last}` : ""}`);
};

/**
 * The secrets a person makes with infra/make-secrets.sh, made by it: an env file of this run's own (read back here,
 * then removed), and NATS's TLS certificates in infra/nats/tls where the compose file mounts them (kept if there).
 */
export const makeSecrets = async (): Promise<Record<string, string>> => {
  const dir = await mkdtemp(path.join(tmpdir(), "fit-containers-secrets-"));
  try {
    await run("bash", ["infra/make-secrets.sh"], { ENV_FILE: path.join(dir, ".env") });
    const lines = (await readFile(path.join(dir, ".env"), "utf8")).split("\n").filter(Boolean);
    return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** One compose project with its own name, secrets and gateway port, so it never meets a person's own cluster. */
export const composeProject = (name: string, gatewayPort: number, secrets: Record<string, string>) => {
  const env = {
    ...secrets,
    COMPOSE_PROJECT_NAME: name,
    GATEWAY_ADDRESS: `127.0.0.1:${gatewayPort}`,
    PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
  };
  const compose = (...args: string[]) => run("docker-compose", ["-f", "docker-compose.yml", ...args], env);
  const containers = async (service?: string) => (await compose("ps", "-q", ...(service ? [service] : []))).split("\n").filter(Boolean);
  const inspect = async (format: string, ids: string[]) => (await run("docker", ["inspect", "-f", format, ...ids])).trim().split("\n");

  return {
    compose,
    containers,
    /** Every container of the project reports its health check as passing; a one-shot (database roles) has done its work. */
    allHealthy: async () => {
      const ids = await containers();
      const states = await inspect("{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}} {{.State.ExitCode}}{{end}}", ids);
      return states.every((state) => state === "healthy" || state === "running 0" || state === "exited 0");
    },
    healthy: async (service: string) => (await inspect("{{.State.Health.Status}}", await containers(service))).every((s) => s === "healthy"),
    addresses: async (service: string) => inspect("{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", await containers(service)),
    /** A file inside a service's first container, through `docker cp` (the collector's image has no shell). */
    readFile: async (service: string, file: string) => {
      const [id] = await containers(service);
      const dir = await mkdtemp(path.join(tmpdir(), "fit-containers-"));
      try {
        await run("docker", ["cp", `${id}:${file}`, dir]);
        return await readFile(path.join(dir, path.basename(file)), "utf8");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    /**
     * Runs `node -e script` in a new container of `service` (its environment and mounts), on the project's network.
     * The script's packages are this checkout's, mounted read-only: the image holds no package but those its
     * bundles load.
     */
    probe: async (service: string, script: string) => {
      const modules = `${path.join(ROOT, "node_modules")}:/probe/node_modules:ro`;
      const args = ["run", "--rm", "--no-deps", "-T", "-v", modules, "-w", "/probe", service, "node", "--input-type=module", "-e", script];
      return JSON.parse((await compose(...args)).trim().split("\n").at(-1)!) as unknown;
    },
    /** psql in the PostgreSQL container as `role` with `password` over TCP (password authentication, as services log in). */
    psql: (role: string, password: string, sql: string) =>
      compose("exec", "-T", "-e", `PGPASSWORD=${password}`, "postgres", "psql", "-h", "127.0.0.1", "-U", role, "-d", "fitness", "-v", "ON_ERROR_STOP=1", "-Atc", sql),
    /** NATS's monitoring endpoint, read from inside its container (nothing but the gateway is published). */
    natsMonitor: async (endpoint: string): Promise<unknown> => JSON.parse(await compose("exec", "-T", "nats", "wget", "-q", "-O", "-", `http://127.0.0.1:8222${endpoint}`)),
  };
};
