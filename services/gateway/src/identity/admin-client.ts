// The create-key CLI's side of the admin socket.
import http from "node:http";
import { ACCOUNT_KEYS_PATH } from "./admin-socket.ts";
import type { IssuedKey, IssueKeyOptions } from "./issue-account-key.ts";

/** Asks the running gateway for a key; null when no gateway listens on `socketPath`. */
export async function requestAccountKey(socketPath: string, email: string, options: IssueKeyOptions = {}): Promise<IssuedKey | null> {
  const payload = JSON.stringify({ email, ...options });
  return new Promise((resolve, reject) => {
    const req = http.request(
      // agent: false: a fresh connection each time; a pooled keep-alive one may belong to a gateway that has gone.
      { socketPath, path: ACCOUNT_KEYS_PATH, method: "POST", headers: { "content-type": "application/json" }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const body = safeJson(Buffer.concat(chunks).toString("utf8"));
          if (res.statusCode === 201) return resolve(body as IssuedKey);
          const reason = (body as { error?: unknown } | null)?.error;
          reject(new Error(`gateway refused: ${typeof reason === "string" ? reason : `status ${res.statusCode}`}`));
        });
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // No socket, or a socket file nobody listens on: the gateway is not running.
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(null);
      else reject(error);
    });
    req.end(payload);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
