import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { PhotoRead } from "@fit/contracts";
import type { z } from "zod";
import { CliError, exitCodes } from "./exit.ts";
import { printLine } from "./output.ts";

/** The type a photo is sent as; the server decides the format from the content itself (docs/decisions/0079-photographed-logs.md). */
const photoTypes: Record<string, string> = { ".png": "image/png", ".webp": "image/webp" };

/** A photo file as the raw body of a photo route. */
export const photoFile = async (file: string) => {
  try {
    return { bytes: await readFile(file), contentType: photoTypes[extname(file).toLowerCase()] ?? "image/jpeg" };
  } catch (error) {
    throw new CliError(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, exitCodes.usage);
  }
};

/** What the photo showed, on one line, and the fields to check: why a logged number is what it is. */
export const printRead = (read: z.output<typeof PhotoRead>) => {
  printLine(`Read (${read.source}, ${Math.round(read.confidence)} % sure): ${read.text.replace(/\s+/g, " ").trim()}`);
  if (read.lowConfidence.length > 0) printLine(`Check: ${read.lowConfidence.join(", ")} (read with low confidence)`);
};
