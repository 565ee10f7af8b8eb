import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";
import { skeleton } from "./domain/guards.ts";

const coachEnv = baseEnv(3104).extend({
  /**
   * Any OpenAI-compatible endpoint (OpenAI, llama.cpp, Ollama, vLLM), e.g. http://127.0.0.1:8080/v1. Unset: the
   * built-in estimator answers, with no model and no network (docs/decisions/0016-estimates-carry-range-and-provenance.md).
   */
  COACH_MODEL_URL: z.url().optional(),
  COACH_MODEL_API_KEY: z.string().default("none"),
  COACH_MODEL: z.string().default("gpt-4o-mini"),
  /** Per model call; the openai client would otherwise wait 10 minutes. */
  COACH_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(7_000),
  /** Retries of a failed call (never of 400/401/403): one retry budget, not the client's default two. */
  COACH_MODEL_RETRIES: z.coerce.number().int().min(0).max(3).default(1),
  COACH_MAX_TOKENS: z.coerce.number().int().min(50).max(8000).default(600),
  /** Model calls one replica runs at once, and how many more may wait; past both, 429. */
  COACH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  COACH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** The least time between two calls' starts in one replica, so that freed slots do not start a burst; 0: none. */
  COACH_START_SPACING_MS: z.coerce.number().min(0).max(1000).default(5),
  COACH_DAILY_CALLS: z.coerce.number().int().min(1).default(300),
  COACH_DAILY_TOKENS: z.coerce.number().int().min(1).default(300_000),
  /**
   * Deadline of each grounding question (weight, targets, the day's food) before the coach answers without it, and
   * of the food database's answer for an estimate (without it the estimate fails).
   */
  COACH_GROUNDING_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1500),
  /** Placed in the system prompt; a reply containing it is withheld. Unset: a random one per process. */
  COACH_CANARY: z
    .string()
    .refine((canary) => skeleton(canary).length >= 8, "must hold at least 8 letters or digits (the reply check compares those)")
    .default(() => `canary-${crypto.randomUUID()}`),
});
export type CoachConfig = z.output<typeof coachEnv>;

export const loadCoachConfig = (env?: NodeJS.ProcessEnv) => loadConfig(coachEnv, env);
