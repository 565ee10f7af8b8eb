import { AppError, MODEL_PHOTO_LIMIT } from "@fit/contracts";
import sharp from "sharp";

/**
 * Sizes and qualities tried in turn until the photo fits in a bus question: 1568 pixels on the long side is what
 * vision models read at full detail without scaling it down themselves; text stays legible well below it.
 */
const STEPS = [
  { side: 1568, quality: 80 },
  { side: 1280, quality: 70 },
  { side: 1024, quality: 60 },
  { side: 768, quality: 50 },
];

/**
 * The photo as the coach's model is sent it: the reader's re-encoded PNG (upright, grey, no metadata) as a JPEG,
 * base64, small enough for one bus message (docs/decisions/0084-photos-read-by-the-model.md).
 */
export const modelImage = async (png: Buffer): Promise<string> => {
  for (const { side, quality } of STEPS) {
    const jpeg = await sharp(png).resize({ width: side, height: side, fit: "inside", withoutEnlargement: true }).jpeg({ quality }).toBuffer();
    const base64 = jpeg.toString("base64");
    if (base64.length <= MODEL_PHOTO_LIMIT) return base64;
  }
  throw new AppError("payload_too_large", "the photo is too detailed to send to the model");
};
