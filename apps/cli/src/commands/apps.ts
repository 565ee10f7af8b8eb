import { operations } from "@fit/contracts";
import type { Command } from "commander";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { localTime, printJson, printLine, printTable } from "../output.ts";

/** Agents the account has let in (OAuth): list them, cut one off. Needs a key with the `keys` scope. */
export const appsCommands = (program: Command): void => {
  const apps = program.command("apps").description("connected apps: agents you allowed to act for you (needs a key with the keys scope)");

  apps
    .command("list")
    .description("every app holding a grant, with its scopes and last use")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const { items } = await call(await context.connection(), operations.listConnectedApps);
      if (context.json) return printJson({ items });
      if (items.length === 0) return printLine("No connected apps.");
      printTable(
        ["client id", "name", "self-registered", "scopes", "redirects to", "connected", "last used"],
        items.map((app) => [
          app.clientId, app.name ?? "(unnamed)", app.selfRegistered ? "yes" : "no", app.scopes.join(" "),
          app.redirectHosts.join(" "), localTime(app.createdAt), app.lastUsedAt === null ? "–" : localTime(app.lastUsedAt),
        ]),
      );
    });

  apps
    .command("revoke")
    .description("end an app's grant: its access and refresh tokens stop working at once")
    .argument("<clientId>", "the app's client id, as `fit apps list` shows it")
    .action(async (clientId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      await call(await context.connection(), operations.revokeConnectedApp, { params: { clientId } });
      if (context.json) return printJson({ ok: true, clientId });
      printLine(`Revoked ${clientId}: its tokens no longer work; it must ask you again to reconnect.`);
    });
};
