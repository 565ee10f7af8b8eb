/**
 * What the process's exit status means (docs/decisions/0030-command-line-client.md); scripts branch on these.
 */
export const exitCodes = {
  ok: 0,
  /** The API refused or failed the request (4xx other than those below, 500). */
  api: 1,
  /** Wrong arguments or input refused before any request was sent. */
  usage: 2,
  /** No key, or the server refused it (401) or it lacks the scope (403). */
  auth: 3,
  notFound: 4,
  /** The server is unreachable, busy (429) or unavailable (502, 503, 504). */
  unavailable: 5,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

import type { z } from "zod";

/** A failure the CLI reports in one line on stderr before exiting with `code`. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly code: ExitCode,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export const exitCodeOfStatus = (status: number): ExitCode => {
  if (status === 401 || status === 403) return exitCodes.auth;
  if (status === 404) return exitCodes.notFound;
  if (status === 429 || status === 502 || status === 503 || status === 504) return exitCodes.unavailable;
  return exitCodes.api;
};

/** A contract's message starts with its field, or with "must"/"is" and then gets the field in front, as the server's. */
const described = ({ path, message }: z.core.$ZodIssue): string => {
  const field = path.map(String).join(".");
  return field && /^(must|is) /.test(message) ? `${field} ${message}` : message;
};

/** Input a contract refuses, in the contract's own words (the server would answer the same), prefixed by where. */
export const refused = (error: z.ZodError, where = ""): CliError =>
  new CliError(`${where}${error.issues.map(described).join("; ")}`, exitCodes.usage);
