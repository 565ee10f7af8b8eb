import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { CliError, exitCodes } from "./exit.ts";

const DEFAULT_URL = "http://127.0.0.1:3000";

const StoredConfig = z.object({ url: z.string().optional(), key: z.string().optional() });
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

/** Flags win over the environment, which wins over the config file; the file is read only when still needed. */
export const resolveConnection = async (
  flags: { url?: string; key?: string },
  env: NodeJS.ProcessEnv,
): Promise<Connection> => {
  const url = flags.url ?? env.FIT_URL;
  const key = flags.key ?? env.FIT_API_KEY;
  const stored = url !== undefined && key !== undefined ? {} : await readConfig(configPath(env));
  return { url: (url ?? stored.url ?? DEFAULT_URL).replace(/\/+$/, ""), key: key ?? stored.key };
};
