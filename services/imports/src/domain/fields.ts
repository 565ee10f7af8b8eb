import type { z } from "zod";

/** A number as exports write it: a decimal comma read as a point; empty or unreadable is undefined. */
export const numberOf = (text: string | undefined) => {
  const value = text?.trim().replace(/^(\d+),(\d+)$/, "$1.$2");
  if (!value) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
};

/** A contract's message, naming its field when it does not already: the reason a row is refused. */
export const reasonOf = ({ path, message }: z.core.$ZodIssue) => {
  const field = String(path[0] ?? "");
  return message.startsWith(field) ? message : `${field} ${message}`;
};
