import type { PreparedPhoto } from "./image.ts";

export type { PreparedPhoto } from "./image.ts";
export { createOcrPool, type OcrPool, type ReadLine, type ReadText } from "./ocr-pool.ts";
export { fixDigits } from "./misreads.ts";
export { readPhoto } from "./read-photo.ts";

/**
 * sharp's native libvips adds ~40 MB to a process the moment it loads: it is loaded with the first photo, not
 * when the service starts (the embedded start's memory is a target: docs/decisions/0049-minified-bundles-and-a-tighter-heap.md).
 */
export const preparePhoto = async (bytes: Buffer): Promise<PreparedPhoto> => (await import("./image.ts")).preparePhoto(bytes);

/** The photo for the coach's model; sharp is loaded as for `preparePhoto`. */
export const modelImage = async (png: Buffer): Promise<string> => (await import("./model-image.ts")).modelImage(png);
