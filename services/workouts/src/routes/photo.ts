import { randomUUID } from "node:crypto";
import { AppError, coachBus, operations, refuseIfTooFarAhead, utcDay, type ParsedWorkout } from "@fit/contracts";
import { modelImage, preparePhoto, readPhoto, type OcrPool } from "@fit/photos";
import { serveOperation, type OperationInput, type ServiceContext } from "@fit/service-kit";
import { localDay, startOfDescribedWorkout, weekdayOf } from "../domain/placement.ts";
import { checkScreen, photoSummary, readScreen, startOfPhotographed } from "../domain/photo-workout.ts";
import { createdWorkout, defaultSummary, workoutDraft } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";

/** The 422 of a photo that gave no workout: what was read, and what is missing, so the person can fix or type it. */
const unreadable = (missing: string, text: string) =>
  new AppError("unprocessable", `the photo did not show a workout that can be logged: ${missing}`, `read: ${JSON.stringify(text.trim().slice(0, 1000))}`);

/**
 * Photo → bounds checked and re-encoded (@fit/photos) → read by the coach's model when it has one, else on a
 * reading thread → the screen's fields, checked (domain/photo-workout.ts) → placed at the time the words give, else
 * when the photo was taken, else now → the coach's energy estimate when the screen shows none → stored as a
 * described workout is, or shown as a preview (docs/decisions/0079-photographed-logs.md,
 * docs/decisions/0084-photos-read-by-the-model.md, docs/decisions/0085-photo-previews-saved-through-create-routes.md).
 * The photo is not kept.
 */
export const photoRoute = (
  { app, store, relay, bus }: ServiceContext<Store>,
  ocr: OcrPool,
  { coachTimeoutMs, estimateTimeoutMs }: { coachTimeoutMs: number; estimateTimeoutMs: number },
) => {
  /** The workout a photo shows, as it would be logged, and what was read: the log and its preview share it. */
  const readWorkout = async ({ body, query, caller }: Pick<OperationInput<typeof operations.logWorkoutPhoto>, "body" | "query" | "caller">) => {
    if (!Buffer.isBuffer(body)) throw new AppError("unsupported_media_type", "send the photo as the raw body: image/jpeg, image/png or image/webp");
    const { accountId } = caller;
    const now = Date.now();
    const tz = query.tz ?? 0;
    const date = query.date ?? localDay(now, tz);
    const photo = await preparePhoto(body);
    const { reading, when } = await bus.request(
      coachBus.readScreenPhoto,
      { accountId, image: await modelImage(photo.png), words: query.text ?? null, weekday: weekdayOf(date) },
      { timeoutMs: coachTimeoutMs },
    );
    const { workout, read: readBack } = await readPhoto(photo.png, {
      reading, ocr, fromText: readScreen, fromFields: checkScreen,
      unreadable: (text) => unreadable("the text could not be read surely", text),
    });
    const { durationS } = workout;
    if (durationS === null) throw unreadable("no duration (e.g. TIME 30:12)", readBack.text);

    const startedAt =
      (when && startOfDescribedWorkout({ date, tz, now, when, durationS })) ??
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
