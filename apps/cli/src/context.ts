import type { Command } from "commander";
import { resolveConnection, type Connection } from "./config.ts";

interface GlobalOptions {
  url?: string;
  key?: string;
  json?: boolean;
}

export interface Context {
  json: boolean;
  connection(): Promise<Connection>;
}

/** The global options as one command sees them (they may be given before or after its name). */
export const contextOf = (command: Command): Context => {
  const options = command.optsWithGlobals<GlobalOptions>();
  return { json: options.json === true, connection: () => resolveConnection(options, process.env) };
};
