// Secrets generated on first start in embedded mode, so a quick start needs no configuration. The launchers
// (all in one process, or one process per service) call this, so every process they start agrees on the value.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Returns the secret stored in `<dataDir>/secrets/<name>`, creating it (32 random bytes, base64url, mode 0600)
 * if absent. Two processes racing to create it end up with the same value: the file is created exclusively.
 */
export async function loadOrCreateLocalSecret(dataDir: string, name: string): Promise<string> {
  if (!NAME.test(name)) throw new Error(`secret name "${name}" must match ${NAME}`);
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, name);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const existing = await readSecret(file);
  if (existing) return existing;
  const fresh = randomBytes(32).toString("base64url");
  try {
    await writeFile(file, `${fresh}\n`, { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Lost the race: the other process's value wins. It may not have written it yet.
    for (let attempt = 0; attempt < 50; attempt++) {
      const written = await readSecret(file);
      if (written) return written;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${file} exists but stays empty`, { cause: error });
  }
}

async function readSecret(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // A copy restored with loose permissions would leak the key that signs every session cookie.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return text.trim() || null;
}
