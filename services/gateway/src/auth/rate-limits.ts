import rateLimit, { type CreateRateLimitOptions } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Bus } from "@fit/bus";
import { AppError } from "@fit/contracts";
import { sharedCounterStore } from "./shared-counter-store.ts";

export interface RateLimitConfig {
  RATE_LIMIT_PER_MINUTE: number;
  REFUSED_LIMIT_PER_MINUTE: number;
  SIGN_IN_LIMIT_PER_ADDRESS: number;
  SIGN_IN_LIMIT_PER_EMAIL: number;
  REGISTRATION_LIMIT_PER_ADDRESS: number;
  EXCHANGE_LIMIT_PER_ADDRESS: number;
}

const MINUTE = 60_000;
const WINDOWS = { account: MINUTE, refused: MINUTE, signInAddress: 15 * MINUTE, signInEmail: 60 * MINUTE, registrationAddress: 15 * MINUTE, exchangeAddress: MINUTE };
/** The counters' bucket keeps an entry as long as the longest window it may belong to. */
const BUCKET = { name: "RATE_LIMITS", maxAgeMs: Math.max(...Object.values(WINDOWS)) };

const emailOf = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
};

/**
 * Rate limits, answered 429 with Retry-After in the error envelope. API use is counted per account (after
 * authentication, so one noisy key cannot starve others behind the same address); refused requests per client
 * address (a key-guessing or unknown-path flood without a credential); sign-in links per client address (the
 * socket's, or the trusted proxy's view of it with TRUST_PROXY; never a client-set header) and per email, so
 * nobody floods an inbox; OAuth client registrations per client address. Each purpose has a budget of its own
 * (its own key prefix in the one store), so spending one, say by registering clients, never blocks another,
 * such as signing in from the same address. The counters live in the
 * bus's key-value bucket, so every gateway replica on one NATS counts against the same limits (in memory in the
 * all-in-one process): docs/decisions/0023-shared-rate-limit-counters.md.
 */
export const installRateLimits = async (app: FastifyInstance, config: RateLimitConfig, bus: Bus) => {
  const shared = await bus.keyValue(BUCKET.name, { maxAgeMs: BUCKET.maxAgeMs });
  await app.register(rateLimit, { global: false, store: sharedCounterStore({ shared, maxAgeMs: BUCKET.maxAgeMs, logger: app.log }) });
  // createRateLimit, not rateLimit(): the plugin's own hook runs once per request, and sign-in needs two limits.
  const limiter = (options: CreateRateLimitOptions) => {
    const check = app.createRateLimit(options);
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      void reply.header("retry-after", String(result.ttlInSeconds));
      throw new AppError("rate_limited", `too many requests, retry in ${result.ttlInSeconds} s`);
    };
  };
  return {
    perAccount: limiter({
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: WINDOWS.account,
      keyGenerator: (request) => `account:${request.caller.accountId}`,
    }),
    /** Refused credentials and unauthenticated requests, per client address. */
    refusedPerAddress: limiter({
      max: config.REFUSED_LIMIT_PER_MINUTE,
      timeWindow: WINDOWS.refused,
      keyGenerator: (request) => `refused-address:${request.ip}`,
    }),
    signInPerAddress: limiter({
      max: config.SIGN_IN_LIMIT_PER_ADDRESS,
      timeWindow: WINDOWS.signInAddress,
      keyGenerator: (request) => `sign-in-address:${request.ip}`,
    }),
    signInPerEmail: limiter({
      max: config.SIGN_IN_LIMIT_PER_EMAIL,
      timeWindow: WINDOWS.signInEmail,
      keyGenerator: (request) => `sign-in-email:${emailOf(request)}`,
    }),
    registrationPerAddress: limiter({
      max: config.REGISTRATION_LIMIT_PER_ADDRESS,
      timeWindow: WINDOWS.registrationAddress,
      keyGenerator: (request) => `registration-address:${request.ip}`,
    }),
    /** Codes, refresh tokens and sign-in links exchanged for a credential, and consents given, per client address. */
    exchangePerAddress: limiter({
      max: config.EXCHANGE_LIMIT_PER_ADDRESS,
      timeWindow: WINDOWS.exchangeAddress,
      keyGenerator: (request) => `exchange-address:${request.ip}`,
    }),
  };
};
