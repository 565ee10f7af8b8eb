import { inUnitsOf, typedLength, typedWeight, type Typed, type UnitSystem } from "@fit/units";
import { InvalidArgumentError } from "commander";
import { send } from "./client.ts";
import type { Connection } from "./config.ts";
import type { Context } from "./context.ts";
import { CliError, exitCodes } from "./exit.ts";

/** Argument parsers: a number with the unit it was typed in, if any (`179.4`, `179.4lb`, `12st 8lb`, `32in`). */
export const weight = (value: string): Typed<"kg" | "lb" | "st"> => {
  const typed = typedWeight(value);
  if (!typed) throw new InvalidArgumentError("not a number, or one with kg, lb or st (81.4, 179.4lb, 12st 8lb)");
  return typed;
};

export const length = (value: string): Typed<"cm" | "in"> => {
  const typed = typedLength(value);
  if (!typed) throw new InvalidArgumentError("not a number, or one with cm or in (81.5, 32in, 5ft 11in)");
  return typed;
};

const SYSTEMS: readonly UnitSystem[] = ["metric", "imperial", "imperial_stones"];

/**
 * The profile's units (`GET /api/profile`), or undefined when the key may not read the profile (an API key without
 * `profile:read`): numbers are then shown in kilograms and centimetres, each with its unit, and a bare number
 * typed is refused. A server older than the profile (404), or a word this client does not know, leaves the API's
 * own units.
 */
export const readUnits = async (connection: Connection): Promise<UnitSystem | undefined> => {
  try {
    const { units } = (await (await send(connection, "GET", "/api/profile")).json()) as { units?: string };
    return SYSTEMS.find((system) => system === units) ?? "metric";
  } catch (error) {
    if (error instanceof CliError && error.status === 404) return "metric";
    if (error instanceof CliError && error.status === 403) return undefined;
    throw error;
  }
};

/**
 * The system a typed number is read in: the profile's for a bare number, asked then and only then, so a number
 * with its own unit (which wins whatever the profile says) is checked against the contract before any request.
 */
export const readIn = async (typed: Typed<string>, context: Context): Promise<UnitSystem> => {
  if (typed.unit !== undefined) return "metric";
  const units = await context.units();
  if (units === undefined) {
    throw new CliError("this key may not read the profile (scope profile:read) that says what a bare number means: write the unit (81.4kg, 179.4lb, 32in)", exitCodes.usage);
  }
  return units;
};

/** A request whose refusal names kilograms or centimetres, its message restated in the person's units. */
export const inUnits = async <T>(system: UnitSystem, request: Promise<T>): Promise<T> => {
  try {
    return await request;
  } catch (error) {
    if (error instanceof CliError) throw new CliError(inUnitsOf(error.message, system), error.code, error.status);
    throw error;
  }
};

/** The units numbers are shown in: the profile's, or the API's own when the key may not read it (each number names its unit). */
export const shownIn = (system: UnitSystem | undefined): UnitSystem => system ?? "metric";
