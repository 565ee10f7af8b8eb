import type { operations } from "@fit/contracts";
import type { Command } from "commander";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { printJson, printLine } from "../output.ts";

type DeleteOperation = (typeof operations)["deleteWeight" | "deleteMeasurement" | "deleteFoodItem" | "deleteWorkout" | "deleteCustomFood" | "deleteRecipe"];

/** `<parent> delete <id>`: one record of `noun`'s kind, as its `list` prints its id. */
export const addDeleteCommand = (parent: Command, noun: string, operation: DeleteOperation, description = `delete a ${noun} by its id`) =>
  parent
    .command("delete")
    .description(description)
    .argument("<id>", `the ${noun}'s id`)
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const ack = await call(await context.connection(), operation, { params: { id } });
      if (context.json) return printJson(ack);
      printLine(`Deleted ${noun} ${id}`);
    });
