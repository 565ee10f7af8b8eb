import { createHash } from "node:crypto";
import { AppError, nutritionBus, utcDay, type ActivityType, type FoodEstimate, type ParsedWorkout, type WorkoutEnergyEstimate } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { z } from "zod";
import type { CoachConfig } from "../config.ts";
import { estimatorReply } from "../domain/coach-reply.ts";
import { sum } from "../domain/numbers.ts";
import { estimateFoods as estimateFoodsFromDatabase } from "../domain/food-estimator.ts";
import {
  foodFromModel, foodInstructions, labelFromModel, labelInstructions, ModelFoods, ModelLabel, ModelScreen, ModelWorkout, normalizeText,
  screenFromModel, screenInstructions, workoutInstructions,
} from "../domain/model-formats.ts";
import { dataMessage, historyTurns, systemPrompt } from "../domain/prompt.ts";
import { repeatsCanary, tokenReservation } from "../domain/guards.ts";
import { betterOptionFoods, judgeFood, optionsFrom } from "../domain/verdict.ts";
import { completeWorkout } from "../domain/workout-completion.ts";
import { estimateWorkoutEnergy } from "../domain/workout-energy.ts";
import { parseWorkout as parseWorkoutFromText, statedWhen } from "../domain/workout-parser.ts";
import type { ModelAnswer } from "../model/model-client.ts";
import type { Store } from "../store/store.ts";
import { createGate, reserveCall } from "./capacity.ts";
import { readGrounding, readWeightKg } from "./grounding-reader.ts";

interface Logger {
  warn(obj: object, msg: string): void;
}

const cacheKey = (kind: string, text: string) => `${kind}:${createHash("sha256").update(normalizeText(text)).digest("hex")}`;

type RecordedWorkout = { activityType: ActivityType; durationS: number; distanceM: number | null; avgHr: number | null };

type Foods = { items: FoodEstimate[]; unrecognized: string[] };

/** The longest fixed instructions a call sends (the coach's system prompt and data framing count as this much). */
const INSTRUCTIONS_CHARS = Math.max(...[foodInstructions, workoutInstructions, screenInstructions, labelInstructions, systemPrompt("")].map((text) => text.length));

/**
 * Everything that may call a language model: estimating food, reading a workout, answering a question. With no
 * model configured the built-in estimator (on nutrition's food database) and parser answer
 * (docs/decisions/0016-estimates-carry-range-and-provenance.md, docs/decisions/0074-food-estimates-from-the-food-database.md).
 * Every call passes the replica's concurrency gate and the account's daily quota. The model's client (and the
 * `openai` package under it) is loaded only when a model is configured: the embedded default never needs it.
 */
export const createCoach = async ({ config, store, bus, log }: { config: CoachConfig; store: Store; bus: Bus; log: Logger }) => {
  const model = config.COACH_MODEL_URL
    ? (await import("../model/model-client.ts")).createModelClient({
        baseURL: config.COACH_MODEL_URL,
        apiKey: config.COACH_MODEL_API_KEY,
        model: config.COACH_MODEL,
        timeoutMs: config.COACH_MODEL_TIMEOUT_MS,
        retries: config.COACH_MODEL_RETRIES,
        maxTokens: config.COACH_MAX_TOKENS,
      })
    : null;
  // The built-in estimator answers in milliseconds: its calls never wait long enough together to free in a burst.
  const gate = createGate({ concurrency: config.COACH_CONCURRENCY, queue: config.COACH_QUEUE, spacingMs: model ? config.COACH_START_SPACING_MS : 0 });
  const limits = { callsPerDay: config.COACH_DAILY_CALLS, tokensPerDay: config.COACH_DAILY_TOKENS };

  /**
   * A call holds its most likely cost (the answer's ceiling plus its prompt) against the day's tokens before it runs,
   * so calls racing for the end of a quota cannot all pass, then settles to what the model reports; a failed call
   * releases its hold. `prompt` is what the call sends the model beyond the fixed instructions, `images` the images it sends.
   */
  const metered = <T>(accountId: string, prompt: string[], work: () => Promise<ModelAnswer<T>>, images = 0) =>
    gate(async () => {
      const startedAt = Date.now();
      // On the day the call was counted, even if it ends after midnight.
      const day = utcDay(startedAt);
      const promptChars = sum(prompt, (text) => text.length) + INSTRUCTIONS_CHARS;
      const reserved = model ? tokenReservation({ maxTokens: config.COACH_MAX_TOKENS, promptChars, images, tokensPerDay: limits.tokensPerDay }) : 0;
      await reserveCall(store, accountId, limits, reserved, startedAt);
      let used = 0;
      try {
        const { value, tokens } = await work();
        used = tokens;
        return value;
      } finally {
        if (reserved > 0 || used > 0) await store.settleTokens(accountId, day, reserved, used);
      }
    });

  /** The model's answer for this account and text is reused for a day, so the same words give the same numbers. */
  const cachedModelCall = async <S extends z.ZodType>(accountId: string, kind: string, text: string, schema: S, call: () => Promise<ModelAnswer<z.output<S>>>) => {
    const key = cacheKey(kind, text);
    const hit = schema.safeParse(await store.cached(accountId, key));
    if (hit.success) return { value: hit.data, tokens: 0 };
    const answer = await call();
    await store.cache(accountId, key, answer.value as object);
    return answer;
  };

  /** The food database's foods for phrases; its failure (timeout, unavailable) fails the estimate, never a guess. */
  const databaseFoods = (accountId: string) => async (phrases: string[]) =>
    (await bus.request(nutritionBus.matchFoods, { accountId, phrases }, { timeoutMs: config.COACH_GROUNDING_TIMEOUT_MS })).matches;

  /** In a chat the food database being away costs the estimate, not the answer: null instead of its failure. */
  const unlessDatabaseAway = <T>(work: Promise<T>): Promise<T | null> =>
    work.catch((error: unknown) => {
      if (error instanceof AppError && (error.code === "unavailable" || error.code === "timeout")) return null;
      throw error;
    });

  // The model's items keep its own numbers: grounding them on the database would need the model to name foods as
  // the database does, a prompt and format change of its own (docs/decisions/0074-food-estimates-from-the-food-database.md).
  const foods = async (accountId: string, text: string): Promise<ModelAnswer<Foods>> => {
    if (!model) return { value: await estimateFoodsFromDatabase(text, databaseFoods(accountId)), tokens: 0 };
    const answer = await cachedModelCall(accountId, "foods", text, ModelFoods, () =>
      model.structured("foods", ModelFoods, [{ role: "system", content: foodInstructions }, { role: "user", content: text }]),
    );
    return { value: { items: answer.value.items.map((i) => foodFromModel(i, model.name)), unrecognized: answer.value.unrecognized }, tokens: answer.tokens };
  };

  /**
   * The model's reading of a photo (the re-encoded JPEG, base64) as an image input, as one metered call; the same image
   * is read once a day, so a photo read again (a preview, then its log) gives the same numbers.
   */
  const readPhoto = <S extends z.ZodType>(client: NonNullable<typeof model>, accountId: string, kind: "screen" | "label", image: string, schema: S, instructions: string) =>
    metered(
      accountId,
      [],
      () =>
        cachedModelCall(accountId, `${kind}-photo`, createHash("sha256").update(image).digest("hex"), schema, () =>
          client.structured(kind, schema, [
            { role: "system", content: instructions },
            { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${image}` } }] },
          ]),
        ),
      1,
    );

  return {
    estimator: model ? `model:${model.name}` : "database",
    limits,

    estimateFoods: ({ accountId, text }: { accountId: string; text: string }) => metered(accountId, [text], () => foods(accountId, text)),

    parseWorkout: ({ accountId, text, date, weekday }: { accountId: string; text: string; date: string; weekday: number }) =>
      metered(accountId, [text], async (): Promise<ModelAnswer<ParsedWorkout>> => {
        const read = model
          ? await cachedModelCall(accountId, "workout", text, ModelWorkout, () =>
              model.structured("workout", ModelWorkout, [{ role: "system", content: workoutInstructions }, { role: "user", content: text }]),
            )
          : { value: parseWorkoutFromText(text, { weekday }), tokens: 0 };
        const weight = await readWeightKg(bus, accountId, date, config.COACH_GROUNDING_TIMEOUT_MS);
        const completion = completeWorkout(read.value, weight.kg);
        if ("refusal" in completion) throw new AppError("validation", completion.refusal.message, completion.refusal.hint);
        return { value: completion.workout, tokens: read.tokens };
      }),

    /** Without a model nothing reads the photo here (the service reads it on-device) and nothing is metered. */
    readScreenPhoto: async ({ accountId, image, words, weekday }: { accountId: string; image: string; words: string | null; weekday: number }) => ({
      reading: model && screenFromModel(await readPhoto(model, accountId, "screen", image, ModelScreen, screenInstructions), model.name),
      when: words === null ? null : statedWhen(words, weekday),
    }),

    readLabelPhoto: async ({ accountId, image }: { accountId: string; image: string }) => ({
      reading: model && labelFromModel(await readPhoto(model, accountId, "label", image, ModelLabel, labelInstructions), model.name),
    }),

    /** The table's estimate for recorded workouts, with the account's weight on `date`; no model, no quota. */
    estimateWorkoutEnergy: async ({ accountId, date, workouts }: { accountId: string; date: string; workouts: RecordedWorkout[] }) => {
      const weight = await readWeightKg(bus, accountId, date, config.COACH_GROUNDING_TIMEOUT_MS);
      return { estimates: workouts.map((workout): WorkoutEnergyEstimate | null => estimateWorkoutEnergy({ ...workout, exercises: [] }, weight.kg)) };
    },

    ask: ({ accountId, date, messages }: { accountId: string; date: string; messages: { role: "user" | "assistant"; content: string }[] }) =>
      metered(accountId, messages.map((m) => m.content), async () => {
        const grounding = await readGrounding(bus, { accountId, date }, config.COACH_GROUNDING_TIMEOUT_MS);
        const question = messages.findLast((m) => m.role === "user")?.content ?? "";
        // The same estimate the food log would store for these words: the coach and the log never disagree.
        const estimate = await unlessDatabaseAway(foods(accountId, question));
        const items = estimate?.value.items ?? [];
        const options = items.length > 0 ? optionsFrom((await unlessDatabaseAway(estimateFoodsFromDatabase(betterOptionFoods, databaseFoods(accountId))))?.items ?? []) : [];
        const judgement = items.length > 0 ? judgeFood({ kcal: sum(items, (i) => i.kcal), proteinG: sum(items, (i) => i.proteinG) }, grounding, options) : null;
        const builtIn = estimate
          ? estimatorReply(items, judgement, grounding)
          : `${estimatorReply([], null, grounding)}\n(The food database did not answer, so no food in your message was estimated; ask again shortly.)`;
        if (!model) return { value: { reply: builtIn }, tokens: 0 };
        const answer = await model.chat([
          { role: "system", content: systemPrompt(config.COACH_CANARY) },
          { role: "system", content: dataMessage(grounding, items, judgement) },
          ...historyTurns(messages),
        ]);
        const tokens = (estimate?.tokens ?? 0) + answer.tokens;
        if (repeatsCanary(answer.value, config.COACH_CANARY)) {
          log.warn({ accountId }, "model reply withheld: it repeated the system prompt's canary");
          return { value: { reply: `${builtIn}\n(The model's answer was withheld by a safety check; this is the built-in estimate.)` }, tokens };
        }
        return { value: { reply: answer.value.trim() }, tokens };
      }),
  };
};

export type Coach = Awaited<ReturnType<typeof createCoach>>;
