import { Command, CommanderError } from "commander";
import { accountCommands } from "./commands/account.ts";
import { appsCommands } from "./commands/apps.ts";
import { dashboardCommand } from "./commands/dashboard.ts";
import { foodCommands } from "./commands/food.ts";
import { recipeCommands } from "./commands/own-foods.ts";
import { importCommand } from "./commands/import.ts";
import { measurementsCommands } from "./commands/measurements.ts";
import { targetsCommands } from "./commands/targets.ts";
import { weightCommands } from "./commands/weight.ts";
import { workoutsCommands } from "./commands/workouts.ts";
import { CliError, exitCodes } from "./exit.ts";
import { printError } from "./output.ts";

const program = new Command("fit")
  .description("The fitness platform from the command line (docs: README, \"Command-line client\").")
  .option("--url <url>", "the server (default: FIT_URL, the config file, http://127.0.0.1:3000)")
  .option("--key <key>", "the API key (default: FIT_API_KEY, then the config file)")
  .option("--json", "print JSON for scripts instead of tables")
  .showHelpAfterError()
  // Inherited by every command defined below, so a usage mistake anywhere arrives here as a CommanderError.
  .exitOverride();

accountCommands(program);
weightCommands(program);
measurementsCommands(program);
foodCommands(program);
recipeCommands(program);
dashboardCommand(program);
targetsCommands(program);
workoutsCommands(program);
importCommand(program);
appsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const shown = error.code === "commander.helpDisplayed" || error.code === "commander.version";
    process.exitCode = shown ? exitCodes.ok : exitCodes.usage;
  } else if (error instanceof CliError) {
    printError(`fit: ${error.message}`);
    process.exitCode = error.code;
  } else {
    printError(`fit: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = exitCodes.api;
  }
}
