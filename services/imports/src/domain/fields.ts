import type { z } from "zod";

/** A number as exports write it: a decimal comma read as a point; empty or unreadable is undefined. */
export const numberOf = (text: string | undefined) => {
  const value = text?.trim().replace(/^(\d+),(\d+)$/, "$1.$2");
  if (!value) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
};

/** A contract's messages, each naming its field (its path, when nested) when it does not already: why a row is refused. */
export const reasonOf = (error: z.ZodError) =>
  error.issues
    .map(({ path, message }) => (message.startsWith(String(path[0] ?? "")) ? message : `${path.map(String).join(".")} ${message}`))
    .join("; ");
