import type { UnitSystem } from "@fit/units";
import type { Command } from "commander";
import { resolveConnection, type Connection } from "./config.ts";
import { readUnits } from "./units.ts";

interface GlobalOptions {
  url?: string;
  key?: string;
  json?: boolean;
}

export interface Context {
  json: boolean;
  connection(): Promise<Connection>;
  /** The profile's units (undefined when the key may not read them), asked of the server once per command. */
  units(): Promise<UnitSystem | undefined>;
}

/** The global options as one command sees them (they may be given before or after its name). */
export const contextOf = (command: Command): Context => {
  const options = command.optsWithGlobals<GlobalOptions>();
  const connection = () => resolveConnection(options, process.env);
  let units: Promise<UnitSystem | undefined> | undefined;
  return { json: options.json === true, connection, units: () => (units ??= connection().then(readUnits)) };
};
