// Signing the command-line client in as an agent of the platform's own authorization server: a public native client
// (RFC 8252: loopback redirect, PKCE S256, state), its tokens cached in the config file and refreshed there
// (docs/decisions/0058-command-line-sign-in.md).
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { agentScopes } from "@fit/contracts";
import { z } from "zod";
import { CliError, exitCodes } from "./exit.ts";

/** What the config file keeps of a browser sign-in: enough to refresh, revoke and call without asking again. */
export const StoredOAuth = z.object({
  clientId: z.string(),
  tokenEndpoint: z.url(),
  revocationEndpoint: z.url().optional(),
  resource: z.url(),
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  /** Milliseconds since the epoch. */
  expiresAt: z.number(),
});
export type StoredOAuth = z.infer<typeof StoredOAuth>;

const ServerMetadata = z.object({
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  registration_endpoint: z.url(),
  revocation_endpoint: z.url().optional(),
  issuer: z.string(),
});
const ResourceMetadata = z.object({ resource: z.url() });
const Registered = z.object({ client_id: z.string() });
const TokenAnswer = z.object({ access_token: z.string(), refresh_token: z.string().optional(), expires_in: z.number(), scope: z.string().optional() });
const TokenError = z.object({ error: z.string(), error_description: z.string().optional() });

/** Every scope an agent may hold, and a refresh token so the person is not sent to the browser every 10 minutes. */
const SCOPES = [...agentScopes, "offline_access"].join(" ");
/** How long `fit login` waits for the person to finish in the browser. */
const SIGN_IN_TIMEOUT_MS = 10 * 60_000;
/** A token this close to its expiry is refreshed first: the request must not land just after it. */
const EXPIRY_MARGIN_MS = 30_000;

const base64url = (bytes: Buffer) => bytes.toString("base64url");

const unreachable = (url: string, error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new CliError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? String(error)}`, exitCodes.unavailable);
};

const getJson = async <T>(url: string, schema: z.ZodType<T>, what: string): Promise<T> => {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw unreachable(url, error);
  }
  const parsed = schema.safeParse(response.ok ? await response.json().catch(() => null) : null);
  if (!parsed.success) throw new CliError(`${url} did not answer with ${what} (${response.status})`, exitCodes.api);
  return parsed.data;
};

/** A form POST to the authorization server (RFC 6749 §4.1.3, §6; RFC 7009); its JSON answer, or its OAuth error. */
const postForm = async (url: string, fields: Record<string, string>): Promise<{ ok: boolean; body: unknown }> => {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(fields).toString(),
    });
  } catch (error) {
    throw unreachable(url, error);
  }
  return { ok: response.ok, body: await response.json().catch(() => null) };
};

const oauthError = (body: unknown) => {
  const error = TokenError.safeParse(body);
  return error.success ? (error.data.error_description ?? error.data.error) : "no reason given";
};

const stored = (answer: z.infer<typeof TokenAnswer>, base: Omit<StoredOAuth, "accessToken" | "refreshToken" | "expiresAt">, previousRefresh?: string): StoredOAuth => ({
  ...base,
  accessToken: answer.access_token,
  // Refresh tokens rotate: the new one replaces the old, which the server no longer accepts.
  refreshToken: answer.refresh_token ?? previousRefresh,
  expiresAt: Date.now() + answer.expires_in * 1000,
});

const claimsOf = (token: string): unknown => {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown;
  } catch {
    return null;
  }
};

/** The account an access token was issued for, to tell the person; read, not verified (the server verifies). */
const emailOfToken = (token: string): string | undefined => {
  const claims = z.object({ email: z.string() }).safeParse(claimsOf(token));
  return claims.success ? claims.data.email : undefined;
};

/** A browser can be opened here: one is named, or there is a desktop to open one on. */
const browserAvailable = (env: NodeJS.ProcessEnv) =>
  Boolean(env.BROWSER) || process.platform === "darwin" || process.platform === "win32" || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);

const openBrowser = (url: string, env: NodeJS.ProcessEnv) => {
  const [command, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  // Never a shell: the URL goes to the program as one argument. A failure leaves the printed URL to follow.
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => {});
  child.unref();
};

const page = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>fit</title><p>${text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;

/**
 * The loopback listener the browser is sent back to (RFC 8252 §7.3): 127.0.0.1 on a port the system picks, for one
 * answer on /callback. Anything else it is sent is a 404.
 */
const listen = async (): Promise<{ server: Server; redirectUri: string; callback: Promise<URL> }> => {
  let deliver: (url: URL) => void = () => {};
  const callback = new Promise<URL>((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const failed = url.searchParams.has("error");
    response.writeHead(failed ? 400 : 200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(page(failed ? "Sign-in was not completed; the terminal says why." : "Signed in: you can close this tab and return to the terminal."));
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/callback`, callback };
};

/** The address the browser ended on, pasted by the person (a browser on another machine cannot reach the listener). */
const pasted = (redirectUri: string): { answer: Promise<URL>; stop(): void } => {
  const lines = createInterface({ input: process.stdin, terminal: false });
  const answer = new Promise<URL>((resolve) => {
    lines.on("line", (line) => {
      const text = line.trim();
      if (text.startsWith(redirectUri.split("/callback")[0]!) && URL.canParse(text)) resolve(new URL(text));
      else if (text) process.stderr.write(`That is not the address the browser ended on (it starts with ${redirectUri}); paste it again:\n`);
    });
  });
  return { answer, stop: () => lines.close() };
};

interface BrowserSignIn {
  tokens: StoredOAuth;
  email: string | undefined;
}

/**
 * The whole sign-in: discovery, registration of this client, the authorization request in the browser, the code
 * back on the loopback listener (or pasted), and its exchange for tokens.
 */
export const signInWithBrowser = async (url: string, { noBrowser, env }: { noBrowser: boolean; env: NodeJS.ProcessEnv }): Promise<BrowserSignIn> => {
  const server = await getJson(`${url}/.well-known/oauth-authorization-server`, ServerMetadata, "authorization server metadata");
  const { resource } = await getJson(`${url}/.well-known/oauth-protected-resource/mcp`, ResourceMetadata, "protected resource metadata");
  const listener = await listen();
  const paste = pasted(listener.redirectUri);
  let timer: NodeJS.Timeout | undefined;
  try {
    const registered = await registerClient(server.registration_endpoint, {
      client_name: "fit command-line client",
      redirect_uris: [listener.redirectUri],
      application_type: "native",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: SCOPES,
    });
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(16));
    const authorize = new URL(server.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: registered.client_id,
      redirect_uri: listener.redirectUri,
      scope: SCOPES,
      state,
      resource,
      code_challenge: base64url(createHash("sha256").update(verifier).digest()),
      code_challenge_method: "S256",
    }).toString();
    const opened = !noBrowser && browserAvailable(env);
    if (opened) {
      openBrowser(authorize.toString(), env);
      process.stderr.write(`Opening your browser to sign in. If it does not open, visit:\n\n  ${authorize.toString()}\n\n`);
    } else {
      process.stderr.write(`Open this address in a browser, on any machine, and sign in:\n\n  ${authorize.toString()}\n\n`);
      process.stderr.write(`If that browser is not on this machine, paste here the address it ends on (${listener.redirectUri}?…):\n`);
    }
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CliError("no sign-in within 10 minutes; run fit login again", exitCodes.auth)), SIGN_IN_TIMEOUT_MS);
    });
    const answer = await Promise.race([listener.callback, paste.answer, deadline]);
    const params = answer.searchParams;
    // The answer must be to this request: another state is a forged or stale redirect (RFC 6749 §10.12).
    if (params.get("state") !== state) throw new CliError("the sign-in answer is not for this request (state differs); run fit login again", exitCodes.auth);
    const iss = params.get("iss");
    if (iss !== null && iss !== server.issuer) throw new CliError(`the sign-in answer came from another server (${iss})`, exitCodes.auth);
    if (params.has("error")) throw new CliError(`sign-in refused: ${params.get("error_description") ?? params.get("error")}`, exitCodes.auth);
    const code = params.get("code");
    if (!code) throw new CliError("the sign-in answer carries no code; run fit login again", exitCodes.auth);
    const exchanged = await postForm(server.token_endpoint, {
      grant_type: "authorization_code",
      code,
      redirect_uri: listener.redirectUri,
      client_id: registered.client_id,
      code_verifier: verifier,
      resource,
    });
    const tokens = TokenAnswer.safeParse(exchanged.body);
    if (!exchanged.ok || !tokens.success) throw new CliError(`the server refused the sign-in code: ${oauthError(exchanged.body)}`, exitCodes.auth);
    const base = { clientId: registered.client_id, tokenEndpoint: server.token_endpoint, revocationEndpoint: server.revocation_endpoint, resource };
    return { tokens: stored(tokens.data, base), email: emailOfToken(tokens.data.access_token) };
  } finally {
    clearTimeout(timer);
    paste.stop();
    listener.server.close();
  }
};

/** Dynamic client registration (RFC 7591); the client id, or why not. */
const registerClient = async (url: string, body: object): Promise<z.infer<typeof Registered>> => {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
  } catch (error) {
    throw unreachable(url, error);
  }
  const answer: unknown = await response.json().catch(() => null);
  const registered = Registered.safeParse(answer);
  if (!response.ok || !registered.success) throw new CliError(`the server refused to register this client (${response.status}): ${oauthError(answer)}`, exitCodes.auth);
  return registered.data;
};

/** The stored tokens still good for a request, else null: time to refresh. */
export const stillFresh = (tokens: StoredOAuth, now = Date.now()) => tokens.expiresAt - EXPIRY_MARGIN_MS > now;

/** A new access token (and rotated refresh token) for the stored one; a refusal says to sign in again. */
export const refreshTokens = async (tokens: StoredOAuth): Promise<StoredOAuth> => {
  const again = "the sign-in has expired or was revoked: run fit login again";
  if (!tokens.refreshToken) throw new CliError(again, exitCodes.auth);
  const answer = await postForm(tokens.tokenEndpoint, {
    grant_type: "refresh_token",
    refresh_token: tokens.refreshToken,
    client_id: tokens.clientId,
    resource: tokens.resource,
  });
  const parsed = TokenAnswer.safeParse(answer.body);
  if (!answer.ok || !parsed.success) throw new CliError(`${again} (${oauthError(answer.body)})`, exitCodes.auth);
  const { accessToken: _old, refreshToken, expiresAt: _was, ...base } = tokens;
  return stored(parsed.data, base, refreshToken);
};

/** Ends the grant on the server (RFC 7009): the refresh token, so no new access token, and the access token held. */
export const revokeTokens = async (tokens: StoredOAuth): Promise<boolean> => {
  const endpoint = tokens.revocationEndpoint;
  if (!endpoint) return false;
  const revoke = (token: string, hint: string) => postForm(endpoint, { token, token_type_hint: hint, client_id: tokens.clientId });
  const refresh = tokens.refreshToken ? (await revoke(tokens.refreshToken, "refresh_token")).ok : true;
  return (await revoke(tokens.accessToken, "access_token")).ok && refresh;
};
