import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { AppError, HEIC_PIXEL_LIMIT, PHOTO_PIXEL_LIMIT } from "@fit/contracts";
import exifr from "exifr";
import sharp from "sharp";

/** What the reader is given of a photo: a grey, upright, text-sized PNG with no metadata, and when it was taken. */
export interface PreparedPhoto {
  png: Buffer;
  /** The capture time from EXIF: `DateTimeOriginal` as UTC ms when its offset is known, else local wall-clock ms with `offsetMin` null. */
  takenAt: { localMs: number; offsetMin: number | null } | null;
}

const FORMATS = new Set(["jpeg", "png", "webp", "heif"]);
/** OCR reads best with capital letters ~30 px tall: a small screenshot is enlarged, a full-size photo reduced. */
const READ_WIDTH = { min: 1200, max: 2000 };
const tooManyPixels = (limit: number) => new AppError("payload_too_large", `the photo has more than ${limit / 1e6} megapixels`);

/** "2026:11:27 18:30:05" and "+01:00" → the wall-clock time as if UTC, and minutes east of UTC. */
const exifTime = (date: unknown, offset: unknown): PreparedPhoto["takenAt"] => {
  const match = typeof date === "string" ? /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(date) : null;
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const localMs = Date.UTC(y, mo - 1, d, h, mi, s);
  if (!Number.isFinite(localMs)) return null;
  const off = typeof offset === "string" ? /^([+-])(\d{2}):(\d{2})$/.exec(offset) : null;
  return { localMs, offsetMin: off ? (off[1] === "-" ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3])) : null };
};

/**
 * HEIC (HEVC in a HEIF file: a phone's default) is decoded by libheif compiled to WebAssembly (heic-decode; the
 * registry's libvips has no HEVC decoder), on a thread of its own that ends with the photo: a 12-megapixel photo is
 * seconds of CPU, which on the request thread would stall every other request. Whole, so at most HEIC_PIXEL_LIMIT, and
 * one at a time per process; a second meanwhile is a 429 (docs/decisions/0079-photographed-logs.md).
 */
const HEIC_TIMEOUT_MS = 30_000;
// Resolved here, run by the thread: the thread is plain CommonJS, with none of the host's flags (a thread refuses
// V8's process-wide ones, which every server runs with: docs/decisions/0040-wasm-liftoff-only.md).
// The size libheif itself parsed from the file is checked again before it decodes: it is what its buffers are made for.
const HEIC_THREAD = `const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const images = await require(workerData.decoder).all({ buffer: workerData.bytes });
  const [image] = images;
  if (image.width * image.height > workerData.pixelLimit) return parentPort.postMessage({ tooLarge: true });
  const { width, height, data } = await image.decode();
  images.dispose();
  parentPort.postMessage({ width, height, data }, [data.buffer]);
})();`;
let decodingHeic = false;
const require = createRequire(import.meta.url);

type Decoded = { width: number; height: number; data: Uint8ClampedArray };
const decodeHeic = async (bytes: Buffer): Promise<Decoded> => {
  if (decodingHeic) throw new AppError("rate_limited", "another HEIC photo is being decoded, retry shortly", undefined, 5);
  decodingHeic = true;
  const decoder = require.resolve("heic-decode");
  const thread = new Worker(HEIC_THREAD, { eval: true, execArgv: [], workerData: { decoder, bytes, pixelLimit: HEIC_PIXEL_LIMIT } });
  const timer = setTimeout(() => void thread.terminate(), HEIC_TIMEOUT_MS);
  try {
    return await new Promise((resolve, reject) => {
      thread.once("message", (decoded: Decoded | { tooLarge: true }) => ("tooLarge" in decoded ? reject(tooManyPixels(HEIC_PIXEL_LIMIT)) : resolve(decoded)));
      thread.once("error", reject);
      thread.once("exit", () => reject(new AppError("unprocessable", "the photo took too long to decode")));
    });
  } finally {
    clearTimeout(timer);
    decodingHeic = false;
    void thread.terminate();
  }
};

/** The EXIF block libvips found in the header, as TIFF: a JPEG's APP1 carries it after "Exif\0\0". */
const exifOf = (block: Buffer) => block.subarray(block.subarray(0, 6).toString("latin1") === "Exif\0\0" ? 6 : 0);

/**
 * Checks a photo from its header before anything decodes it (type, then pixel count: a decompression bomb is a 413
 * without a pixel decoded), reads only its capture time from EXIF, and re-encodes it for the reader through libvips
 * (sharp), which also refuses past the pixel limit itself. Nothing else of EXIF (location included) leaves here.
 */
export const preparePhoto = async (bytes: Buffer): Promise<PreparedPhoto> => {
  const header = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => null);
  // libvips reads a HEIF file's header (its size and EXIF) without the HEVC decoder it lacks; AVIF, the other HEIF, is not taken.
  const heic = header?.format === "heif" && header.compression === "hevc";
  if (!header || !FORMATS.has(header.format) || (header.format === "heif" && !heic)) {
    throw new AppError("unsupported_media_type", "the photo must be a JPEG, PNG, WebP or HEIC image");
  }
  const { width = 0, height = 0 } = header;
  const pixelLimit = heic ? HEIC_PIXEL_LIMIT : PHOTO_PIXEL_LIMIT;
  if (width * height > pixelLimit) throw tooManyPixels(pixelLimit);
  if (width < 16 || height < 16) throw new AppError("validation", "the photo is too small to read");
  const exif = header.exif
    ? ((await exifr.parse(exifOf(header.exif), { pick: ["DateTimeOriginal", "OffsetTimeOriginal"], reviveValues: false }).catch(() => null)) as Record<string, unknown> | null)
    : null;
  const decoded = heic
    ? await decodeHeic(bytes).catch((error: unknown) => {
        throw error instanceof AppError ? error : new AppError("validation", "the photo could not be decoded");
      })
    : null;
  // libheif turns a HEIC upright as it decodes (its own rotation box); the others turn by EXIF's orientation.
  const upright = decoded ? decoded.width : (header.orientation ?? 1) >= 5 ? height : width;
  const targetWidth = Math.min(READ_WIDTH.max, Math.max(READ_WIDTH.min, upright));
  try {
    const input = decoded
      ? sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), { raw: { width: decoded.width, height: decoded.height, channels: 4 }, limitInputPixels: PHOTO_PIXEL_LIMIT })
      : sharp(bytes, { limitInputPixels: PHOTO_PIXEL_LIMIT, failOn: "error" }).rotate();
    const grey = input.grayscale().resize({ width: targetWidth });
    const { data, info } = await grey.raw().toBuffer({ resolveWithObject: true });
    // Consoles are often light on dark: the reader wants dark text on light.
    const mean = data.reduce((sum, value) => sum + value, 0) / data.length;
    const image = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } });
    const png = await (mean < 128 ? image.negate({ alpha: false }) : image).normalise().png({ compressionLevel: 1 }).toBuffer();
    return { png, takenAt: exifTime(exif?.DateTimeOriginal, exif?.OffsetTimeOriginal) };
  } catch {
    throw new AppError("validation", "the photo could not be decoded");
  }
};
