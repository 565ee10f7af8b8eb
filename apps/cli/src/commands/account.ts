import { createInterface } from "node:readline/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { operations } from "@fit/contracts";
import type { Command } from "commander";
import { call, send } from "../client.ts";
import { configPath, readConfig, resolveConnection, writeConfig } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes } from "../exit.ts";
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
    .description("check an API key against the server and keep it (and the server's URL) in the config file")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const flags = command.optsWithGlobals<{ url?: string; key?: string }>();
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
      const path = configPath(process.env);
      await writeConfig(path, { url, key });
      if (context.json) return printJson({ url, config: path, dashboard: scoped });
      printLine(`Logged in to ${url}; the key is kept in ${path}`);
      if (!scoped) printLine("Note: this key may not read the dashboard; some commands will answer 403.");
    });

  program
    .command("logout")
    .description("forget the stored key (it stays valid on the server until revoked)")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const path = configPath(process.env);
      const { key: _forgotten, ...rest } = await readConfig(path);
      await writeConfig(path, rest);
      if (context.json) return printJson({ ok: true, config: path });
      printLine(`Logged out: the key is removed from ${path}. Revoke it in the web app if it may have leaked.`);
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
