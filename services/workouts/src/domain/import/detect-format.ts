import type { Document } from "@xmldom/xmldom";
import { ActivityFileError } from "./imported-activity.ts";
import { parseXmlDocument } from "./xml-document.ts";

type DetectedFile = { format: "fit" } | { format: "gpx" | "tcx"; doc: Document };

const NOT_AN_ACTIVITY_FILE = "not a GPX, TCX or FIT file";
const FIT_SIGNATURE = [0x2e, 0x46, 0x49, 0x54]; // ".FIT"

/** A FIT header is 12 or 14 bytes long, says so in its first byte, and carries ".FIT" at bytes 8..11. */
const hasFitHeader = (bytes: Uint8Array) =>
  (bytes[0] === 12 || bytes[0] === 14) && FIT_SIGNATURE.every((byte, i) => bytes[8 + i] === byte);

const ROOT_FORMATS: ReadonlyMap<string, "gpx" | "tcx"> = new Map([
  ["gpx", "gpx"],
  ["TrainingCenterDatabase", "tcx"],
]);

/** By content, never by file name. Text that does not start with markup is not XML worth reporting as malformed. */
export const detectActivityFile = (bytes: Uint8Array): DetectedFile => {
  if (bytes.length === 0) throw new ActivityFileError("the file is empty");
  if (hasFitHeader(bytes)) return { format: "fit" };
  const text = new TextDecoder().decode(bytes);
  if (!/^\s*</.test(text)) throw new ActivityFileError(NOT_AN_ACTIVITY_FILE);
  const doc = parseXmlDocument(text);
  const format = ROOT_FORMATS.get(doc.documentElement?.localName ?? "");
  if (format === undefined) throw new ActivityFileError(NOT_AN_ACTIVITY_FILE);
  return { format, doc };
};
