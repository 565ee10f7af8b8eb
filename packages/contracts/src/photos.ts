import { z } from "zod";
import { LoggedCalendarDate } from "./logged-time.ts";
import { FoodEstimate } from "./estimates.ts";
import { FoodItemList, Meal } from "./nutrition.ts";
import { ActivityType, Workout } from "./workouts.ts";

/** The largest photo taken (docs/decisions/0079-photographed-logs.md): a phone's full-size JPEG fits. */
export const PHOTO_FILE_LIMIT = 8 * 1024 * 1024;
/** The most pixels a photo may declare in its header; past it the picture is refused before any decoding (a 48 MP phone photo fits). */
export const PHOTO_PIXEL_LIMIT = 50_000_000;
/**
 * A HEIC photo is decoded whole (no streaming decoder for it), ~16 bytes a pixel at the peak: a 12-megapixel phone
 * photo fits, a 24 or 48 MP one is refused before decoding (sent as JPEG, it may have PHOTO_PIXEL_LIMIT).
 */
export const HEIC_PIXEL_LIMIT = 16_000_000;
export const PHOTO_MEDIA_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"] as const;

const tz = z.coerce
  .number({ error: "tz must be a number of minutes" })
  .int({ error: "tz must be an integer number of minutes" })
  .min(-840, { error: "tz must be between -840 and 840 minutes" })
  .max(840, { error: "tz must be between -840 and 840 minutes" })
  .optional()
  .meta({ description: "Date.prototype.getTimezoneOffset() of the client; default the photo's own offset, else 0." });

const text = z.string().trim().min(1).max(4000, { error: "text must be 1 to 4000 characters" });

export const WorkoutPhotoQuery = z.object({
  text: text.optional().meta({ description: "What the user adds in words; stored as the description, and a time in it (\"yesterday 7am\") places the workout." }),
  date: LoggedCalendarDate.optional().meta({ description: "The local day; default the photo's capture day, else the client's today." }),
  tz,
});

export const FoodPhotoQuery = z.object({
  date: LoggedCalendarDate.optional().meta({ description: "The day to log on; default the server's current UTC date." }),
  meal: Meal.optional(),
  name: z.string().trim().min(1).max(200).optional().meta({ description: "The food's name; default \"Food from a label\"." }),
  servings: z.coerce.number().positive().max(50).optional().meta({ description: "Servings eaten (the label's serving size); default 1." }),
  grams: z.coerce.number().positive().max(5000).optional().meta({ description: "Grams eaten; wins over servings." }),
});

/** What was read from the photo and by what: the provenance of every number it gave (docs/decisions/0016). */
export const PhotoRead = z
  .object({
    source: z.string().meta({ description: "`ocr` (on-device text recognition) or `model:<name>` (the coach's language model read the image)." }),
    text: z.string().meta({ description: "The text that was read, as read." }),
    confidence: z.number().min(0).max(100).meta({ description: "The reader's confidence in the text, 0–100." }),
    lowConfidence: z.array(z.string()).meta({ description: "Fields whose value was read with low confidence or does not fit the others: check them." }),
  })
  .meta({ id: "PhotoRead" });
export type PhotoRead = z.infer<typeof PhotoRead>;

export const WorkoutFromPhoto = Workout.extend({ read: PhotoRead }).meta({ id: "WorkoutFromPhoto" });
export const FoodFromPhoto = z.object({ items: FoodItemList, read: PhotoRead }).meta({ id: "FoodFromPhoto" });

/**
 * The most base64 characters of a photo sent to the coach's model over the bus: a question must fit in one NATS
 * message (1 MiB by default) with room for the rest of it (docs/decisions/0084-photos-read-by-the-model.md).
 */
export const MODEL_PHOTO_LIMIT = 700_000;

/** What a console or summary screen showed, as the on-device parser or the model read it; null where it showed nothing. */
export const ScreenFields = z.object({
  activityType: ActivityType,
  durationS: z.number().int().positive().nullable(),
  distanceM: z.number().nonnegative().nullable(),
  energyKcal: z.number().nonnegative().nullable(),
  avgHr: z.number().nonnegative().nullable(),
});
export type ScreenFields = z.infer<typeof ScreenFields>;

const perBasis = z.number().nonnegative().nullable();
/** A nutrition-facts label's values per 100 g (EU) or per serving (US), and its serving size when shown. */
export const LabelFields = z.object({
  basis: z.enum(["100g", "serving"]),
  values: z.object({ kcal: perBasis, proteinG: perBasis, fatG: perBasis, carbsG: perBasis }),
  servingG: perBasis,
});
export type LabelFields = z.infer<typeof LabelFields>;

/**
 * What a photo would log, nothing stored (docs/decisions/0085-photo-previews-saved-through-create-routes.md): the
 * web app shows it to correct, then saves it with POST /api/workouts or POST /api/nutrition/items.
 */
export const WorkoutPhotoPreview = Workout.omit({ id: true, createdAt: true, eventId: true })
  .extend({ read: PhotoRead })
  .meta({ id: "WorkoutPhotoPreview", description: "The workout the photo would log (not logged), and what was read." });
export const FoodPhotoPreview = z
  .object({ items: z.array(FoodEstimate).meta({ description: "The label's item for the amount eaten (one), not logged." }), read: PhotoRead })
  .meta({ id: "FoodPhotoPreview", description: "The item the label would log (not logged), and what was read." });
