import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError, exitCodes } from "./exit.ts";
import { refreshTokens, stillFresh, StoredOAuth } from "./oauth.ts";

const DEFAULT_URL = "http://127.0.0.1:3000";

const StoredConfig = z.object({ url: z.string().optional(), key: z.string().optional(), oauth: StoredOAuth.optional() });
export type StoredConfig = z.infer<typeof StoredConfig>;

/** Where `fit login` keeps the server and the key: the XDG config directory, as other command-line tools do. */
export const configPath = (env: NodeJS.ProcessEnv): string =>
  join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "fit", "config.json");

/**
 * The stored settings, or none. A file others can read is refused, as ssh refuses such a private key: the key in
 * it may already have leaked, and quietly using it would hide that.
 */
export const readConfig = async (path: string): Promise<StoredConfig> => {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  if ((mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8);
    throw new CliError(`${path} is readable by other users (mode ${octal}); run: chmod 600 ${path}`, exitCodes.usage);
  }
  const parsed = StoredConfig.safeParse(JSON.parse(await readFile(path, "utf8")));
  if (!parsed.success) throw new CliError(`${path} is not a fit configuration file`, exitCodes.usage);
  return parsed.data;
};

/**
 * Written owner-only from its first byte: a new file made 0600 (`mode` applies only to a file being created, so
 * rewriting the old one would keep whatever mode it had until a chmod), then renamed over the old one, so a reader
 * never sees half a file either. The folder is the CLI's own and made 0700 even if it was there before.
 */
export const writeConfig = async (path: string, config: StoredConfig): Promise<void> => {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const temporary = join(folder, `.config.json.${process.pid}.${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
};

export interface Connection {
  url: string;
  key: string | undefined;
}

/** A lock older than this was left by a process that died mid-refresh. */
const STALE_LOCK_MS = 30_000;

/**
 * One refresh at a time per config file: refresh tokens rotate and a used one is a replay that ends the whole
 * grant, so two `fit` commands started together must not both spend the same one. The one that waited finds the
 * token the other stored.
 */
const withRefreshLock = async <T>(path: string, work: () => Promise<T>): Promise<T> => {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      await (await open(lock, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lock).then((held) => Date.now() - held.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS) await rm(lock, { force: true });
      else await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
};

/** The cached access token, refreshed (and the rotated tokens stored) when it is about to expire. */
const accessToken = async (path: string, tokens: StoredOAuth): Promise<string> => {
  if (stillFresh(tokens)) return tokens.accessToken;
  return withRefreshLock(path, async () => {
    const current = await readConfig(path);
    if (current.oauth && stillFresh(current.oauth)) return current.oauth.accessToken;
    if (!current.oauth) throw new CliError("not logged in: run `fit login`", exitCodes.auth);
    const refreshed = await refreshTokens(current.oauth);
    await writeConfig(path, { ...current, oauth: refreshed });
    return refreshed.accessToken;
  });
};

const withoutSlash = (url: string) => url.replace(/\/+$/, "");

/** The server: the flag, the environment, the config file, or the default. */
export const serverUrl = async (flags: { url?: string }, env: NodeJS.ProcessEnv): Promise<string> =>
  withoutSlash(flags.url ?? env.FIT_URL ?? (await readConfig(configPath(env))).url ?? DEFAULT_URL);

/**
 * Flags win over the environment, which wins over the config file; the file is read only when still needed. A
 * cached sign-in is used only with the server that issued it: its token is for that server's API alone.
 */
export const resolveConnection = async (
  flags: { url?: string; key?: string },
  env: NodeJS.ProcessEnv,
): Promise<Connection> => {
  const url = flags.url ?? env.FIT_URL;
  const key = flags.key ?? env.FIT_API_KEY;
  const path = configPath(env);
  const stored = url !== undefined && key !== undefined ? {} : await readConfig(path);
  const server = withoutSlash(url ?? stored.url ?? DEFAULT_URL);
  const cached = stored.oauth && key === undefined && stored.key === undefined && server === stored.url ? stored.oauth : undefined;
  return { url: server, key: key ?? stored.key ?? (cached && (await accessToken(path, cached))) };
};
