import { AppError, operations, utcDay } from "@fit/contracts";
import { preparePhoto, type OcrPool } from "@fit/photos";
import { serveOperation, type OperationInput, type ServiceContext } from "@fit/service-kit";
import { itemsFromEstimates } from "../domain/described-meal.ts";
import { labelEstimate, readLabel } from "../domain/photo-label.ts";
import type { Store } from "../store/store.ts";

/** Below this overall confidence the text read is not used at all (tesseract's 0–100). */
const MIN_CONFIDENCE = 45;

const unreadable = (missing: string, text: string) =>
  new AppError("unprocessable", `the label could not be logged: missing ${missing}`, `read: ${JSON.stringify(text.trim().slice(0, 1000))}`);

/**
 * Photo of a nutrition-facts label → bounds checked and re-encoded (@fit/photos) → text read on a reading thread →
 * the label's values (domain/photo-label.ts) for the amount eaten → logged like a described food, with its range and
 * source `ocr` (docs/decisions/0079-photographed-logs.md). The photo is not kept.
 */
export const photoRoute = ({ app, store, relay }: ServiceContext<Store>, ocr: OcrPool) => {
  /** The label's item for the amount eaten, and what was read: the log and its preview share it. */
  const readItem = async ({ body, query }: Pick<OperationInput<typeof operations.logFoodPhoto>, "body" | "query">) => {
    if (!Buffer.isBuffer(body)) throw new AppError("unsupported_media_type", "send the photo as the raw body: image/jpeg, image/png or image/webp");
    const photo = await preparePhoto(body);
    const read = await ocr.read(photo.png);
    if (read.confidence < MIN_CONFIDENCE) throw unreadable("a label read surely", read.text);
    const label = readLabel(read.lines);
    const estimate = labelEstimate(label, query, "ocr");
    if ("missing" in estimate) throw unreadable(estimate.missing.join(", "), read.text);
    const readBack = { source: "ocr", text: read.text, confidence: read.confidence, lowConfidence: label.lowConfidence };
    return { estimate, readBack };
  };

  serveOperation(app, operations.logFoodPhoto, async (input) => {
    const { estimate, readBack } = await readItem(input);
    const { query, caller, record } = input;
    const date = query.date ?? utcDay(Date.now());
    const items = await store.addItems(itemsFromEstimates([estimate], { accountId: caller.accountId, date, meal: query.meal ?? null }), (views) =>
      record({ items: views, read: readBack }),
    );
    relay.kick();
    return { items, read: readBack };
  });

  // Nothing stored: the web app shows it to correct, then logs it with POST /api/nutrition/items (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
  serveOperation(app, operations.previewFoodPhoto, async (input) => {
    const { estimate, readBack } = await readItem(input);
    return { items: [estimate], read: readBack };
  });
};
