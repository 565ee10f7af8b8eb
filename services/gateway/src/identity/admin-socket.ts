// An operator endpoint on a Unix socket beside the data (mode 0600: only the gateway's own user can connect).
// Why: embedded PGlite is single-process, so while the gateway runs the create-key CLI cannot open the
// database; it asks the running gateway through this socket instead. One route: POST /account-keys.
import { existsSync } from "node:fs";
import { chmod, mkdir, unlink } from "node:fs/promises";
import http from "node:http";
import { dirname, join } from "node:path";
import net from "node:net";
import { z } from "zod";
import { AppError } from "@fit/contracts";
import type { Identity } from "./identity.ts";
import type { IdentityLogger } from "./logger.ts";

export const ACCOUNT_KEYS_PATH = "/account-keys";

/** Where the running gateway listens, so the gateway and the CLI meet without configuration. */
export const adminSocketPath = (dataDir: string) => join(dataDir, "gateway-admin.sock");
const BODY_LIMIT = 16 * 1024;

const AccountKeyRequest = z.object({
  email: z.string(),
  name: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  expiresInSeconds: z.number().optional(),
});

export interface AdminSocketOptions {
  path: string;
  identity: Pick<Identity, "issueAccountKey">;
  logger: IdentityLogger;
}

export async function startAdminSocket({ path, identity, logger }: AdminSocketOptions): Promise<{ close(): Promise<void> }> {
  // With PostgreSQL nothing else creates DATA_DIR; the socket's folder is the owner's alone.
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await removeStaleSocket(path);
  const server = http.createServer((req, res) => {
    handle(req, identity)
      .then(({ status, body }) => send(res, status, body))
      .catch((error: unknown) => {
        if (error instanceof AppError) return send(res, error.status, { error: error.message });
        logger.error({ err: error }, "admin socket request failed");
        send(res, 500, { error: "internal error" });
      });
  });
  // Bind with a umask that leaves the socket owner-only from its first instant; chmod afterwards as well.
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path, resolve));
  } finally {
    process.umask(previous);
  }
  await chmod(path, 0o600);
  logger.info({ path }, "admin socket listening");
  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(path).catch(() => undefined);
    },
  };
}

async function handle(req: http.IncomingMessage, identity: AdminSocketOptions["identity"]) {
  if (req.url !== ACCOUNT_KEYS_PATH) return { status: 404, body: { error: "not found" } };
  if (req.method !== "POST") return { status: 405, body: { error: "use POST" } };
  const parsed = AccountKeyRequest.safeParse(await readJson(req));
  if (!parsed.success) throw new AppError("validation", "expected {email, name?, scopes?, expiresInSeconds?}");
  const { email, ...options } = parsed.data;
  return { status: 201, body: await identity.issueAccountKey(email, options) };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new AppError("payload_too_large", "body too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("validation", "body is not JSON");
  }
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

// A socket file left by a gateway that died is removed; one that answers belongs to a running gateway.
async function removeStaleSocket(path: string) {
  if (!existsSync(path)) return;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = net.connect(path, () => probe.end(() => resolve(true)));
    probe.once("error", () => resolve(false));
  });
  if (alive) throw new Error(`${path} is served by another running gateway`);
  await unlink(path);
}
