import { AppError, PHOTO_PIXEL_LIMIT } from "@fit/contracts";
import exifr from "exifr";
import sharp from "sharp";

/** What the reader is given of a photo: a grey, upright, text-sized PNG with no metadata, and when it was taken. */
export interface PreparedPhoto {
  png: Buffer;
  /** The capture time from EXIF: `DateTimeOriginal` as UTC ms when its offset is known, else local wall-clock ms with `offsetMin` null. */
  takenAt: { localMs: number; offsetMin: number | null } | null;
}

const FORMATS = new Set(["jpeg", "png", "webp"]);
/** OCR reads best with capital letters ~30 px tall: a small screenshot is enlarged, a full-size photo reduced. */
const READ_WIDTH = { min: 1200, max: 2000 };

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
 * Checks a photo from its header before anything decodes it (type, then pixel count: a decompression bomb is a 413
 * without a pixel decoded), reads only its capture time from EXIF, and re-encodes it for the reader through libvips
 * (sharp), which also refuses past the pixel limit itself. Nothing else of EXIF (location included) leaves here.
 */
export const preparePhoto = async (bytes: Buffer): Promise<PreparedPhoto> => {
  const header = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => null);
  if (!header || !FORMATS.has(header.format)) throw new AppError("unsupported_media_type", "the photo must be a JPEG, PNG or WebP image");
  const { width = 0, height = 0 } = header;
  if (width * height > PHOTO_PIXEL_LIMIT) throw new AppError("payload_too_large", `the photo has more than ${PHOTO_PIXEL_LIMIT / 1e6} megapixels`);
  if (width < 16 || height < 16) throw new AppError("validation", "the photo is too small to read");
  const exif = header.exif
    ? ((await exifr.parse(bytes, { pick: ["DateTimeOriginal", "OffsetTimeOriginal"], reviveValues: false }).catch(() => null)) as Record<string, unknown> | null)
    : null;
  const upright = (header.orientation ?? 1) >= 5 ? height : width;
  const targetWidth = Math.min(READ_WIDTH.max, Math.max(READ_WIDTH.min, upright));
  try {
    const grey = sharp(bytes, { limitInputPixels: PHOTO_PIXEL_LIMIT, failOn: "error" }).rotate().grayscale().resize({ width: targetWidth });
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
