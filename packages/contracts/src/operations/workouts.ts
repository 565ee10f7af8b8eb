// The HTTP operations of workouts, their routes, one-file imports and photos (workouts).
import { Ack, IdParams } from "../common.ts";
import {
  Workout, WorkoutCreate, WorkoutDescribe, WorkoutImported, WorkoutImportQuery, WorkoutImportRow, WorkoutListQuery, WorkoutPage, WorkoutPatch, WorkoutRoute,
} from "../workouts.ts";
import {
  PHOTO_FILE_LIMIT, PHOTO_MEDIA_TYPES, WorkoutFromPhoto, WorkoutPhotoPreview, WorkoutPhotoQuery,
} from "../photos.ts";
import { ACTIVITY_FILE_LIMIT, define, modelErrors, type Operation } from "./operation.ts";

export const workoutsOperations = {
  describeWorkout: define({
    id: "describeWorkout", method: "POST", path: "/api/workouts/describe", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from a description",
    description: "Parses the text into a normalized workout (source `manual`) and logs it. `date` + `tz` place a " +
      "workout the text dates only loosely (\"this morning\"); without a time of day it is placed at local noon, or " +
      "to end now on today. Unstated metrics are null; energyKcal is estimated (with its range) when not stated. A " +
      "workout the text places more than a day ahead of the server's clock is a 400, and nothing is logged.",
    body: WorkoutDescribe, response: Workout, errors: [...modelErrors, 409, 422], idempotencyKey: true,
  }),
  logWorkoutPhoto: define({
    id: "logWorkoutPhoto", method: "POST", path: "/api/workouts/photo", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from a photo of a console or summary screen",
    description: "A JPEG, PNG, WebP or HEIC photo as the raw body (up to 8 MiB and 50 megapixels, 16 for HEIC): duration, distance, kcal, " +
      "average heart rate and the activity are read from it into the same row as POST /api/workouts/describe (source " +
      "`manual`, `description` = `text` or the summary read), by the coach's language model when one is configured " +
      "(`read.source` `model:<name>`), else on-device (`ocr`). The start is the time `text` gives, read as " +
      "/api/workouts/describe reads it (\"yesterday 7am\"), else the photo's capture time (EXIF, its offset) less the " +
      "duration, else now. `read` holds the text read, its source and the fields read with low confidence. A " +
      "photo read too poorly, or showing no duration, is a 422 saying what was read and what is missing; nothing is " +
      "logged. The photo and its EXIF are not kept.",
    query: WorkoutPhotoQuery, response: WorkoutFromPhoto, errors: [400, 409, 413, 415, 422, 429, 502, 503, 504], idempotencyKey: true,
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  previewWorkoutPhoto: define({
    id: "previewWorkoutPhoto", method: "POST", path: "/api/workouts/photo/preview", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Read a workout from a photo, without logging it",
    description: "The same photo, query, reading and refusals as POST /api/workouts/photo, but nothing is logged: the answer is " +
      "the workout it would log, without `id` and `createdAt`, and `read`. The web app shows it to correct, then saves it " +
      "with POST /api/workouts, sending `energyEstimate` only when `energyKcal` was left as estimated.",
    query: WorkoutPhotoQuery, response: WorkoutPhotoPreview, errors: [400, 413, 415, 422, 429, 502, 503, 504],
    upload: { limitBytes: PHOTO_FILE_LIMIT, mediaTypes: PHOTO_MEDIA_TYPES },
  }),
  createWorkout: define({
    id: "createWorkout", method: "POST", path: "/api/workouts", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Log a workout from its fields",
    description: "A workout as the user typed or checked it (a photo's preview corrected), logged with source `manual`. " +
      "Unsent metrics are null; nothing is estimated. A start more than a day ahead of the server's clock is a 400.",
    body: WorkoutCreate, response: Workout, errors: [400, 409, 413, 415], idempotencyKey: true,
  }),
  listWorkouts: define({
    id: "listWorkouts", method: "GET", path: "/api/workouts", service: "workouts", tag: "Workouts", scope: "workouts:read",
    summary: "List workouts", description: "Newest `startedAt` first, in pages; `from`/`to` bound `startedAt`.",
    query: WorkoutListQuery, response: WorkoutPage, errors: [400],
  }),
  getWorkout: define({
    id: "getWorkout", method: "GET", path: "/api/workouts/:id", service: "workouts", tag: "Workouts", scope: "workouts:read",
    summary: "Get a workout", params: IdParams, response: Workout, errors: [400, 404],
  }),
  getWorkoutRoute: define({
    id: "getWorkoutRoute", method: "GET", path: "/api/workouts/:id/route", service: "workouts", tag: "Workouts",
    scope: "workouts:read", summary: "A workout's route and splits",
    description: "The track of an imported GPX, TCX or FIT file, thinned for drawing, and its splits per kilometre. " +
      "Empty lists for a workout without a positioned track (described, sent as a JSON row, or recorded indoors).",
    params: IdParams, response: WorkoutRoute, errors: [400, 404],
  }),
  editWorkout: define({
    id: "editWorkout", method: "PATCH", path: "/api/workouts/:id", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Correct a workout", params: IdParams, body: WorkoutPatch, response: Workout,
    errors: [400, 404, 413, 415],
  }),
  deleteWorkout: define({
    id: "deleteWorkout", method: "DELETE", path: "/api/workouts/:id", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Delete a workout", params: IdParams, response: Ack, errors: [400, 404],
  }),
  importWorkout: define({
    id: "importWorkout", method: "POST", path: "/api/workouts/import", service: "workouts", tag: "Workouts",
    scope: "workouts:write", summary: "Import a workout (GPX, TCX, FIT file or a JSON row)",
    description: "A GPX, TCX or FIT file as the raw body (up to 10 MiB; its format is read from its content), or a " +
      "normalized JSON row with `source` and `externalId`. Distance, moving time, elevation gain and heart rate are " +
      "computed from a file's track. The same file or (source, externalId) again updates the workout it made. A " +
      "multisport FIT file (a triathlon) becomes a workout per session, transitions included, linked by one `eventId` " +
      "and all listed in `legs`. A file of an activity already logged from another file (the same run as .fit, .gpx " +
      "and .tcx: same type, starts within 5 minutes, times overlapping by 80 % or more) makes no second workout: " +
      "`duplicateOf` names the logged one, which a richer file updates and a poorer one leaves as it is. A file " +
      "stating no energy (GPX, or `<Calories>0`) gets an estimate from the MET table, the activity's speed and the " +
      "person's latest weight, with its range in `energyEstimate`; a device's own figure is never replaced by an " +
      "estimate. A workout starting more than a day ahead of the server's clock (a device's unset clock, say) is a 400.",
    query: WorkoutImportQuery, body: WorkoutImportRow, response: WorkoutImported, errors: [400, 409, 413, 415, 422, 429], idempotencyKey: true,
    upload: {
      limitBytes: ACTIVITY_FILE_LIMIT,
      mediaTypes: ["application/gpx+xml", "application/vnd.garmin.tcx+xml", "application/vnd.ant.fit", "application/xml", "text/xml", "application/octet-stream"],
    },
  }),
} satisfies Record<string, Operation>;
