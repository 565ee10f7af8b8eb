import { z } from "zod";
import { defineEndpoint } from "./bus.ts";
import { accountId, CalendarDate } from "./common.ts";
import { FoodEstimates } from "./estimates.ts";
import { LabelFields, MODEL_PHOTO_LIMIT, PhotoRead, ScreenFields } from "./photos.ts";
import { ActivityType, EnergyEstimate, Exercise } from "./workouts.ts";

export const ChatMessage = z
  .object({
    role: z.enum(["user", "assistant"], { error: "role must be user or assistant" }),
    content: z
      .string()
      .min(1, { error: "content must be 1 to 4000 characters" }).max(4000, { error: "content must be 1 to 4000 characters" })
      .meta({ examples: ["Is a bowl of porridge with a banana a good breakfast for me?"] }),
  })
  .meta({ id: "ChatMessage" });

const Messages = z
  .array(ChatMessage, { error: "messages must be an array of chat messages" })
  .min(1, { error: "messages must hold 1 to 20 messages" })
  .max(20, { error: "messages must hold 1 to 20 messages" });

export const AgentRequest = z
  .object({
    messages: Messages,
    date: CalendarDate.optional().meta({ description: "Same as the query's `date`; both sent and different is a 400." }),
  })
  .meta({ id: "AgentRequest" });

export const AgentQuery = z.object({
  date: CalendarDate.optional().meta({ description: "Day whose intake grounds the reply; default the server's current UTC date." }),
});

export const AgentReply = z.object({ reply: z.string() }).meta({ id: "AgentReply" });

export const CoachUsage = z
  .object({
    date: CalendarDate.meta({ description: "The UTC day the counts are for; they start again at 00:00 UTC." }),
    calls: z.number().int().meta({ description: "Calls the coach accepted today, counted as they start, whatever their outcome." }),
    tokens: z.number().int().meta({ description: "Model tokens (prompt and answer) those calls used; 0 for the built-in estimator." }),
    limits: z.object({ callsPerDay: z.number().int(), tokensPerDay: z.number().int() }),
    estimator: z.string().meta({ description: "`database` (the built-in estimator on the USDA food database, no model) or `model:<name>`." }),
  })
  .meta({ id: "CoachUsage" });

/** When a described workout happened: days back from the user's today, and the local minute of the day if stated. */
const WorkoutWhen = z.object({ dayOffset: z.number().int().max(0), minuteOfDay: z.number().int().min(0).max(1439).nullable() });

/** A workout as the coach read it from text; the workouts service places it in time and stores it. */
export const ParsedWorkout = z.object({
  activityType: ActivityType,
  summary: z.string().min(1).max(200),
  durationS: z.number().int().positive(),
  distanceM: z.number().nonnegative().nullable(),
  elevationGainM: z.number().nonnegative().nullable(),
  /** Stated in the text, or estimated: then `energyEstimate` says its range and source. */
  energyKcal: z.number().nonnegative().nullable(),
  energyEstimate: EnergyEstimate.nullable(),
  avgHr: z.number().nullable(),
  maxHr: z.number().nullable(),
  avgPowerW: z.number().nullable(),
  avgCadence: z.number().nullable(),
  exercises: z.array(Exercise),
  when: WorkoutWhen,
});
export type ParsedWorkout = z.infer<typeof ParsedWorkout>;

/** What an energy estimate needs of a recorded workout; the speed comes from distance over moving time. */
const RecordedWorkout = z.object({
  activityType: ActivityType,
  /** Moving time where known, else elapsed: MET × weight × hours counts the time spent moving. */
  durationS: z.number().positive(),
  distanceM: z.number().nonnegative().nullable(),
  avgHr: z.number().nullable(),
});

export const WorkoutEnergyEstimate = EnergyEstimate.extend({ kcal: z.number().int().nonnegative() });
export type WorkoutEnergyEstimate = z.infer<typeof WorkoutEnergyEstimate>;

const modelPhoto = z.string().min(1).max(MODEL_PHOTO_LIMIT).meta({ description: "The re-encoded photo (JPEG without metadata), base64." });
/** The model's reading of a photo; null when the coach has no model, and the photo is read on-device. */
const photoReading = <F extends z.ZodType>(fields: F) => z.object({ read: PhotoRead, fields }).nullable();

export const coachBus = {
  ask: defineEndpoint({
    subject: "coach.ask",
    service: "coach",
    request: z.object({ accountId, date: CalendarDate, messages: Messages }),
    reply: AgentReply,
  }),
  estimateFoods: defineEndpoint({
    subject: "coach.foods.estimate",
    service: "coach",
    request: z.object({ accountId, text: z.string().min(1).max(4000) }),
    reply: FoodEstimates,
  }),
  parseWorkout: defineEndpoint({
    subject: "coach.workout.parse",
    service: "coach",
    request: z.object({ accountId, text: z.string().min(1).max(4000), date: CalendarDate, weekday: z.number().int().min(0).max(6) }),
    reply: ParsedWorkout,
  }),
  /**
   * The energy of recorded workouts that state none (an imported GPX, a TCX of `<Calories>0`), as a described
   * workout's is estimated: the MET table, the speed, and the account's weight on `date`. Null for one it cannot
   * estimate. No model call, so not counted against the account's quota.
   */
  estimateWorkoutEnergy: defineEndpoint({
    subject: "coach.workout-energy.estimate",
    service: "coach",
    request: z.object({ accountId, date: CalendarDate, workouts: z.array(RecordedWorkout).min(1).max(50) }),
    reply: z.object({ estimates: z.array(WorkoutEnergyEstimate.nullable()) }),
  }),
  /**
   * A photographed console or summary screen, read by the model when the coach has one (then metered as a call),
   * and the time the user's words give (docs/decisions/0084-photos-read-by-the-model.md).
   */
  readScreenPhoto: defineEndpoint({
    subject: "coach.photo.screen.read",
    service: "coach",
    request: z.object({ accountId, image: modelPhoto, words: z.string().min(1).max(4000).nullable(), weekday: z.number().int().min(0).max(6) }),
    /** `when`: the time the words give, read as a described workout's; null when they give none. */
    reply: z.object({ reading: photoReading(ScreenFields), when: WorkoutWhen.nullable() }),
  }),
  /** A photographed nutrition-facts label, read by the model when the coach has one. */
  readLabelPhoto: defineEndpoint({
    subject: "coach.photo.label.read",
    service: "coach",
    request: z.object({ accountId, image: modelPhoto }),
    reply: z.object({ reading: photoReading(LabelFields) }),
  }),
  usage: defineEndpoint({ subject: "coach.usage.get", service: "coach", request: z.object({ accountId }), reply: CoachUsage }),
};
