import { AppError, coachBus, operations, utcDay } from "@fit/contracts";
import { modelImage, preparePhoto, readPhoto, type OcrPool } from "@fit/photos";
import { serveOperation, type OperationInput, type ServiceContext } from "@fit/service-kit";
import { itemsFromEstimates } from "../domain/described-meal.ts";
import { checkLabel, labelEstimate, readLabel } from "../domain/photo-label.ts";
import type { Store } from "../store/store.ts";

const unreadable = (missing: string, text: string) =>
  new AppError("unprocessable", `the label could not be logged: missing ${missing}`, `read: ${JSON.stringify(text.trim().slice(0, 1000))}`);

/**
 * Photo of a nutrition-facts label → bounds checked and re-encoded (@fit/photos) → read by the coach's model when it
 * has one, else on a reading thread → the label's values, checked (domain/photo-label.ts), for the amount eaten →
 * logged like a described food, with its range and source `ocr` or `model:<name>`, or shown as a preview
 * (docs/decisions/0079-photographed-logs.md, docs/decisions/0084-photos-read-by-the-model.md,
 * docs/decisions/0085-photo-previews-saved-through-create-routes.md). The photo is not kept.
 */
export const photoRoute = ({ app, store, relay, bus }: ServiceContext<Store>, ocr: OcrPool, { coachTimeoutMs }: { coachTimeoutMs: number }) => {
  /** The label's item for the amount eaten, and what was read: the log and its preview share it. */
  const readItem = async ({ body, query, caller }: Pick<OperationInput<typeof operations.logFoodPhoto>, "body" | "query" | "caller">) => {
    if (!Buffer.isBuffer(body)) throw new AppError("unsupported_media_type", "send the photo as the raw body: image/jpeg, image/png or image/webp");
    const photo = await preparePhoto(body);
    const { reading } = await bus.request(coachBus.readLabelPhoto, { accountId: caller.accountId, image: await modelImage(photo.png) }, { timeoutMs: coachTimeoutMs });
    const { read, ...label } = await readPhoto(photo.png, {
      reading, ocr, fromText: readLabel, fromFields: checkLabel,
      unreadable: (text) => unreadable("a label read surely", text),
    });
    const estimate = labelEstimate(label, query, read.source);
    if ("missing" in estimate) throw unreadable(estimate.missing.join(", "), read.text);
    return { estimate, read };
  };

  serveOperation(app, operations.logFoodPhoto, async (input) => {
    const { estimate, read } = await readItem(input);
    const { query, caller, record } = input;
    const date = query.date ?? utcDay(Date.now());
    const items = await store.addItems(itemsFromEstimates([estimate], { accountId: caller.accountId, date, meal: query.meal ?? null }), (views) =>
      record({ items: views, read }),
    );
    relay.kick();
    return { items, read };
  });

  // Nothing stored: the web app shows it to correct, then logs it with POST /api/nutrition/items (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
  serveOperation(app, operations.previewFoodPhoto, async (input) => {
    const { estimate, read } = await readItem(input);
    return { items: [estimate], read };
  });
};
