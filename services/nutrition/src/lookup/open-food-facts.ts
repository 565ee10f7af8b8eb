// The one request the service sends out: a product by its barcode, from an Open Food Facts-compatible API. Bounded
// in time and size and checked before anything is read from it (docs/decisions/0066-barcode-lookup.md).
import { AppError } from "@fit/contracts";
import { PRODUCT_FIELDS, type Product, ProductReply } from "../domain/barcode-food.ts";

/** A product's answer with the fields asked for is a few kB; more is not a product. */
const MAX_BODY_BYTES = 256 * 1024;

const unusable = (why: string) => new AppError("upstream_failed", `the barcode lookup gave no usable answer: ${why}`);

/** The body as text, refused once it passes the cap, however the server sends it (declared length or not). */
const boundedText = async (response: Response): Promise<string> => {
  if (Number(response.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw unusable("the answer is too large");
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw unusable("the answer is too large");
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
};

const parsed = (text: string) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw unusable("the answer is not JSON");
  }
};

/**
 * `lookup(gtin)`: the product, or null when the API has none (HTTP 404, or `status` 0). 504 when it does not
 * answer within `timeoutMs` (body included), 502 for any other failure or an answer not of the documented shape.
 */
export const openFoodFacts = ({ baseUrl, timeoutMs }: { baseUrl: string; timeoutMs: number }) => {
  const base = baseUrl.replace(/\/+$/, "");
  return async (gtin: string): Promise<Product | null> => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(`${base}/api/v2/product/${gtin}.json?fields=${PRODUCT_FIELDS}`, {
        signal,
        headers: { accept: "application/json", "user-agent": "fit-nutrition (self-hosted fitness tracker)" },
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw unusable(`HTTP ${response.status}`);
      }
      const reply = ProductReply.safeParse(parsed(await boundedText(response)));
      if (!reply.success) throw unusable("the answer is not a product");
      return reply.data.status === 1 && reply.data.product ? reply.data.product : null;
    } catch (caught) {
      if (caught instanceof AppError) throw caught;
      if (signal.aborted) throw new AppError("timeout", `the barcode lookup did not answer within ${timeoutMs} ms`);
      throw unusable("it could not be reached");
    }
  };
};
