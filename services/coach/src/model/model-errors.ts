import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { AppError } from "@fit/contracts";

/** A code the upstream sends is shown only if it looks like one (`rate_limit_exceeded`), never free text. */
const safeCode = (code: unknown) => (typeof code === "string" && /^[a-z0-9_.-]{1,64}$/i.test(code) ? code : null);
const safeRequestId = (id: unknown) => (typeof id === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : null);
/** A server that echoes a key as its "code" or "request id" must not get it through: anything key-like is dropped. */
const notSecret = (value: string | null, secret: string) =>
  value === null || /^sk-/i.test(value) || (secret.length >= 4 && value.includes(secret)) ? null : value;

/**
 * The model's failure as the caller sees it: 504 past the deadline, otherwise 502 with a `detail` made only of
 * the upstream status, error code and request id: never its message, headers or body, which may echo a key
 * or the prompt (docs/security.md#24-the-coach).
 */
export const toModelError = (error: unknown, deadlineMs: number, apiKey: string): AppError => {
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return new AppError("timeout", "the language model did not answer in time", `no answer within ${deadlineMs} ms`);
  }
  if (error instanceof APIError && error.status !== undefined) {
    const code = notSecret(safeCode(error.code), apiKey);
    const requestId = notSecret(safeRequestId(error.requestID), apiKey);
    const detail = [`upstream status ${error.status}`, code && `code ${code}`, requestId && `request ${requestId}`].filter(Boolean).join(", ");
    const headers = error.headers as Headers | undefined;
    const retryAfter = Number(headers?.get("retry-after"));
    return new AppError("upstream_failed", "the language model failed", detail, retryAfter > 0 ? retryAfter : undefined);
  }
  if (error instanceof APIError) return new AppError("upstream_failed", "the language model failed", "could not reach the model server");
  if (error instanceof AppError) return error;
  return new AppError("upstream_failed", "the language model failed", "unexpected failure");
};
