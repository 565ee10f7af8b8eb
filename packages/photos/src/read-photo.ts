import type { PhotoRead } from "@fit/contracts";
import type { OcrPool, ReadLine } from "./ocr-pool.ts";

/** Below this overall confidence (0–100, tesseract's or the model's own) the text read is not used at all. */
const MIN_CONFIDENCE = 45;

interface Reader<F, R extends { lowConfidence: string[] }> {
  /** The coach's model's reading, or null when it has none. */
  reading: { read: PhotoRead; fields: F } | null;
  ocr: OcrPool;
  /** The on-device text → the fields, checked. */
  fromText: (lines: readonly ReadLine[]) => R;
  /** The model's fields (and those it was unsure of) → the same, checked the same way. */
  fromFields: (fields: F, unsure: string[]) => R;
  /** The 422 of a photo read too unsurely, with the text read. */
  unreadable: (text: string) => Error;
}

/**
 * What a photo showed and its provenance: the model's reading when the coach has a model, else the text read
 * on-device, each through the same checks (docs/decisions/0084-photos-read-by-the-model.md). `read.lowConfidence`
 * is what the checks flagged.
 */
export const readPhoto = async <F, R extends { lowConfidence: string[] }>(
  png: Buffer,
  { reading, ocr, fromText, fromFields, unreadable }: Reader<F, R>,
): Promise<R & { read: PhotoRead }> => {
  if (reading) {
    if (reading.read.confidence < MIN_CONFIDENCE) throw unreadable(reading.read.text);
    const result = fromFields(reading.fields, reading.read.lowConfidence);
    return { ...result, read: { ...reading.read, lowConfidence: result.lowConfidence } };
  }
  const text = await ocr.read(png);
  if (text.confidence < MIN_CONFIDENCE) throw unreadable(text.text);
  const result = fromText(text.lines);
  return { ...result, read: { source: "ocr", text: text.text, confidence: text.confidence, lowConfidence: result.lowConfidence } };
};
