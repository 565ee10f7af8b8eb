import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, type ErrorCode } from "@fit/contracts";

/** Fastify's own failures, mapped to our codes so they answer in the envelope like everything else. */
const fastifyCodes: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ["payload_too_large", "request body is too large"],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ["unsupported_media_type", "content type must be application/json"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["validation", "content length does not match the body"],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["validation", "body must not be empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: ["validation", "body is not valid JSON"],
  // The caller hung up while a forwarded request was under way: nobody is left to answer, and it is no fault.
  UND_ERR_ABORTED: ["unavailable", "request aborted"],
};

/** Errors raised by plugins (proxy, rate limit) carry only a status; keep its meaning, not its text. */
const statusCodes: Record<number, [ErrorCode, string]> = {
  404: ["not_found", "not found"],
  413: ["payload_too_large", "request body is too large"],
  415: ["unsupported_media_type", "content type must be application/json"],
  429: ["rate_limited", "too many requests"],
  502: ["unavailable", "a service is unavailable"],
  503: ["unavailable", "a service is unavailable"],
  504: ["timeout", "a service did not answer in time"],
};

/** Zod messages of the contracts start with the field or with "must"; a bare one gets the path in front. */
const describeIssue = (path: readonly PropertyKey[], message: string): string => {
  const field = path.map(String).join(".");
  if (!field || message.startsWith(field)) return message;
  return message.startsWith("must") ? `${field} ${message}` : `${field}: ${message}`;
};

export const toAppError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    const path = (first?.instancePath ?? "").split("/").filter(Boolean);
    return new AppError("validation", describeIssue(path, first?.message ?? "invalid input"));
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? fastifyCodes[fastifyError.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    const poisoned = /prototype|constructor/i.test(fastifyError.message ?? "");
    return new AppError("validation", poisoned ? "body contains a forbidden __proto__ or constructor key" : "body is not valid JSON");
  }
  const byStatus = statusCodes[fastifyError.statusCode ?? 500];
  return byStatus ? new AppError(...byStatus) : new AppError("internal", "internal error");
};

/** Every failure leaves in the envelope; nothing unexpected leaks its text or stack. */
export const installErrorHandling = (app: FastifyInstance): void => {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === "internal") request.log.error({ err: error }, "unexpected error");
    else if (appError.status >= 500) request.log.warn({ err: error }, appError.message);
    if (appError.code === "unauthenticated") void reply.header("www-authenticate", 'Bearer realm="fit"');
    return reply
      .status(appError.status)
      .send(appError.detail ? { error: appError.message, detail: appError.detail } : { error: appError.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: "not found" }));
};
