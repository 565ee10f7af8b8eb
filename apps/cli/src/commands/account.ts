import { createInterface } from "node:readline/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { operations } from "@fit/contracts";
import type { Command } from "commander";
import { call, send } from "../client.ts";
import { configPath, readConfig, resolveConnection, serverUrl, writeConfig } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes } from "../exit.ts";
import { revokeTokens, signInWithBrowser } from "../oauth.ts";
import { escapeJsonControls, printJson, printLine } from "../output.ts";

/** Pasted at a prompt, or the first line of standard input when a script pipes it in. */
const readKey = async (): Promise<string> => {
  const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  try {
    const asked = prompt.question(process.stdin.isTTY ? "API key (create one in the web app's settings, or with pnpm create-key): " : "");
    const closed = new Promise<string>((resolve) => prompt.once("close", () => resolve("")));
    return (await Promise.race([asked, closed])).trim();
  } finally {
    prompt.close();
  }
};

export const accountCommands = (program: Command): void => {
  program
    .command("login")
    .description("sign in through the browser (or keep an API key with --key or --with-key) and keep it in the config file")
    .option("--no-browser", "print the sign-in address instead of opening a browser (over SSH, say), then take the address it ends on")
    .option("--with-key", "read an API key from standard input (or a prompt) instead of signing in through the browser")
    .action(async (options: { browser: boolean; withKey?: boolean }, command: Command) => {
      const context = contextOf(command);
      const flags = command.optsWithGlobals<{ url?: string; key?: string }>();
      const path = configPath(process.env);
      if (flags.key === undefined && !options.withKey) {
        const url = await serverUrl(flags, process.env);
        const previous = await readConfig(path);
        const { tokens, email } = await signInWithBrowser(url, { noBrowser: !options.browser, env: process.env });
        await writeConfig(path, { url, oauth: tokens });
        // The grant this login replaces would otherwise stay live on the server, unused and forgotten here.
        if (previous.oauth) await revokeTokens(previous.oauth).catch(() => false);
        if (context.json) return printJson({ url, config: path, email: email ?? null });
        return printLine(`Logged in to ${url}${email ? ` as ${email}` : ""}; the sign-in is kept in ${path} and renews itself (fit logout ends it)`);
      }
      const key = flags.key ?? (await readKey());
      if (!key) throw new CliError("no key given: pass --key or paste one", exitCodes.usage);
      // The URL as every command finds it: a new key for the server logged in to before keeps that server.
      const { url } = await resolveConnection({ url: flags.url, key }, process.env);
      // Any answer but 401 proves the key: one without the dashboard scope is still a valid key.
      let scoped = true;
      try {
        await call({ url, key }, operations.getDashboard);
      } catch (error) {
        if (!(error instanceof CliError) || error.status !== 403) throw error;
        scoped = false;
      }
      await writeConfig(path, { url, key });
      if (context.json) return printJson({ url, config: path, dashboard: scoped });
      printLine(`Logged in to ${url}; the key is kept in ${path}`);
      if (!scoped) printLine("Note: this key may not read the dashboard; some commands will answer 403.");
    });

  program
    .command("logout")
    .description("forget the stored key (it stays valid on the server until revoked), or end the browser sign-in")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const path = configPath(process.env);
      const { key: _forgotten, oauth, ...rest } = await readConfig(path);
      // A sign-in is ended on the server too; one it cannot reach is still forgotten here, and the person told.
      const revoked = oauth ? await revokeTokens(oauth).catch(() => false) : null;
      await writeConfig(path, rest);
      if (context.json) return printJson({ ok: true, config: path, ...(revoked === null ? {} : { revoked }) });
      if (revoked === null) return printLine(`Logged out: the key is removed from ${path}. Revoke it in the web app if it may have leaked.`);
      printLine(revoked
        ? `Logged out: the sign-in is ended on the server and removed from ${path}.`
        : `Logged out: the sign-in is removed from ${path}, but the server could not be told; end it under connected apps in the web app.`);
    });

  program
    .command("export")
    .description("download everything stored about your account as JSON (needs a key with the account scope)")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const response = await send(await context.connection(), "GET", operations.exportAccount.path);
      if (!response.body) throw new CliError("the server sent no export", exitCodes.api);
      try {
        // The server's JSON as it is, but for control characters JSON.stringify leaves raw (see output.ts).
        const escaped = response.body
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new TransformStream<string, string>({ transform: (chunk, out) => out.enqueue(escapeJsonControls(chunk)) }));
        await pipeline(Readable.fromWeb(escaped), process.stdout);
      } catch {
        // The server cuts the connection when a service fails midway (never a document that looks whole).
        throw new CliError("the export was cut off midway; what was written is incomplete", exitCodes.unavailable);
      }
    });
};
