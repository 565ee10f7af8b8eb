// The identity module logs through the gateway's pino logger; better-auth's own logger is routed into it.
import { isAPIError } from "better-auth/api";
import type { Logger as BetterAuthLogger } from "better-auth";

type LogFn = (obj: object, msg?: string) => void;

/** The part of a pino (or Fastify) logger this module uses. */
export interface IdentityLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export const silentLogger: IdentityLogger = { debug() {}, info() {}, warn() {}, error() {} };

// better-auth reports a caller's mistake (a bad key, an untrusted callback or origin) at ERROR, which would
// page someone for every typo; those become warnings. Its INFO lines are hints for developers: debug.
const callerMistakes = [/^Failed to validate API key/, /^Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)/, /^Blocked cross-site/];

export function betterAuthLogger(logger: IdentityLogger): BetterAuthLogger {
  return {
    level: "debug",
    log(level, message, ...args) {
      const target =
        level === "error" ? (callerMistakes.some((re) => re.test(message)) ? "warn" : "error") : level === "info" ? "debug" : level;
      const first: unknown = args[0];
      const context = first instanceof Error ? { err: first } : args.length > 0 ? { detail: args.map(describe) } : {};
      logger[target]({ component: "better-auth", ...context }, message);
    },
  };
}

// Arguments are usually errors or plain values; never serialise whole objects, which may hold request data.
const describe = (value: unknown): string =>
  value instanceof Error ? value.message : typeof value === "object" && value !== null ? Object.prototype.toString.call(value) : String(value);

/**
 * better-auth's handler for errors its endpoints throw. Without one it prints every refused request (a bad
 * callback URL, a missing session) to the console at ERROR, past our logger. Refusals are the caller's doing:
 * debug. Only failures on our side stay errors.
 */
export function apiErrorLogger(logger: IdentityLogger) {
  return (error: unknown) => {
    if (isAPIError(error) && error.status !== "INTERNAL_SERVER_ERROR") {
      logger.debug({ component: "better-auth", status: error.status }, error.message);
    } else {
      logger.error({ component: "better-auth", err: error }, "better-auth request failed");
    }
  };
}
