import { randomUUID } from "node:crypto";
import { AppError, coachBus, operations, refuseIfTooFarAhead, utcDay, type ParsedWorkout } from "@fit/contracts";
import { preparePhoto, type OcrPool } from "@fit/photos";
import { serveOperation, type OperationInput, type ServiceContext } from "@fit/service-kit";
import { localDay, startOfDescribedWorkout } from "../domain/placement.ts";
import { photoSummary, readScreen, startOfPhotographed } from "../domain/photo-workout.ts";
import { createdWorkout, defaultSummary, workoutDraft } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";

/** Below this overall confidence the text read is not used at all (tesseract's 0–100). */
const MIN_CONFIDENCE = 45;

/** The 422 of a photo that gave no workout: what was read, and what is missing, so the person can fix or type it. */
const unreadable = (missing: string, text: string) =>
  new AppError("unprocessable", `the photo did not show a workout that can be logged: ${missing}`, `read: ${JSON.stringify(text.trim().slice(0, 1000))}`);

/**
 * Photo → bounds checked and re-encoded (@fit/photos) → text read on a reading thread → the screen's fields
 * (domain/photo-workout.ts) → the coach's energy estimate when the screen shows none → stored as a described
 * workout is (docs/decisions/0079-photographed-logs.md). The photo is not workout.
 */
export const photoRoute = ({ app, store, relay, bus }: ServiceContext<Store>, ocr: OcrPool, { estimateTimeoutMs }: { estimateTimeoutMs: number }) => {
  /** The workout a photo shows, as it would be logged, and what was read: the log and its preview share it. */
  const readWorkout = async ({ body, query, caller }: Pick<OperationInput<typeof operations.logWorkoutPhoto>, "body" | "query" | "caller">) => {
    if (!Buffer.isBuffer(body)) throw new AppError("unsupported_media_type", "send the photo as the raw body: image/jpeg, image/png or image/webp");
    const { accountId } = caller;
    const photo = await preparePhoto(body);
    const read = await ocr.read(photo.png);
    if (read.confidence < MIN_CONFIDENCE) throw unreadable("the text could not be read surely", read.text);
    const { workout, lowConfidence } = readScreen(read.lines);
    const { durationS } = workout;
    if (durationS === null) throw unreadable("no duration (e.g. TIME 30:12)", read.text);

    const now = Date.now();
    const tz = query.tz ?? 0;
    const date = query.date ?? localDay(now, tz);
    const startedAt =
      startOfPhotographed(photo.takenAt, { tz, durationS }) ??
      startOfDescribedWorkout({ date, tz, now, when: { dayOffset: 0, minuteOfDay: null }, durationS });
    refuseIfTooFarAhead(startedAt, "the photographed workout's start", now);

    const estimate =
      workout.energyKcal === null
        ? await bus
            .request(coachBus.estimateWorkoutEnergy, { accountId, date: utcDay(startedAt), workouts: [{ ...workout, durationS }] }, { timeoutMs: estimateTimeoutMs })
            .then((reply) => reply.estimates[0] ?? null)
            .catch((error: unknown) => {
              app.log.warn({ err: error }, "no energy estimate for a photographed workout: the coach did not answer");
              return null;
            })
        : null;
    const summary = defaultSummary(workout.activityType, workout.distanceM, durationS);
    const parsed: ParsedWorkout = {
      ...workout,
      durationS,
      summary,
      elevationGainM: null,
      energyKcal: workout.energyKcal ?? estimate?.kcal ?? null,
      energyEstimate: estimate && { low: estimate.low, high: estimate.high, source: estimate.source },
      maxHr: null, avgPowerW: null, avgCadence: null, exercises: [],
      when: { dayOffset: 0, minuteOfDay: null },
    };
    const text = query.text ?? photoSummary(summary, workout);
    const readBack = { source: "ocr", text: read.text, confidence: read.confidence, lowConfidence };
    return { draft: workoutDraft(parsed, { text, startedAt }), readBack };
  };

  serveOperation(app, operations.logWorkoutPhoto, async (input) => {
    const { draft, readBack } = await readWorkout(input);
    const logged = await store.addWorkout(createdWorkout({ id: randomUUID(), accountId: input.caller.accountId }, draft), (answer) =>
      input.record({ ...answer, read: readBack }),
    );
    relay.kick();
    return { ...logged, read: readBack };
  });

  // Nothing stored: the web app shows it to correct, then saves it with POST /api/workouts (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
  serveOperation(app, operations.previewWorkoutPhoto, async (input) => {
    const { draft, readBack } = await readWorkout(input);
    return { source: "manual" as const, ...draft, read: readBack };
  });
};
