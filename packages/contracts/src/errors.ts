import { z } from "zod";

/**
 * The one application error. Its code maps to exactly one HTTP status (statusOf) and travels over the bus
 * as a header, so a failure keeps its meaning across every hop.
 */
export const errorCodes = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && Object.hasOwn(errorCodes, value);

export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: string,
    /** Seconds until a retry may succeed; sent as Retry-After (429, 503). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

export const statusOf = (code: ErrorCode): number => errorCodes[code];

export const ErrorEnvelope = z
  .object({
    error: z.string().meta({ description: "Reason for the failure." }),
    detail: z.string().optional().meta({ description: "Extra information." }),
  })
  .meta({ id: "ErrorEnvelope", description: "Every error answers in this envelope." });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
