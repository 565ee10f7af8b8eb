import { gpxReader } from "./gpx.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { tcxReader } from "./tcx.ts";
import { markupStart, readXml } from "./xml-document.ts";

const NOT_AN_ACTIVITY_FILE = "not a GPX, TCX or FIT file";
const FIT_SIGNATURE = [0x2e, 0x46, 0x49, 0x54]; // ".FIT"

/** A FIT header is 12 or 14 bytes long, says so in its first byte, and carries ".FIT" at bytes 8..11. */
export const hasFitHeader = (bytes: Uint8Array) =>
  (bytes[0] === 12 || bytes[0] === 14) && FIT_SIGNATURE.every((byte, i) => bytes[8 + i] === byte);

const XML_READERS: Readonly<Record<string, () => ReturnType<typeof gpxReader>>> = {
  gpx: gpxReader,
  TrainingCenterDatabase: tcxReader,
};

/**
 * A GPX or TCX file, told apart by its root element, never by a file name. Text that does not start with markup is
 * not XML worth reporting as malformed.
 */
export const readXmlActivity = (bytes: Uint8Array): ImportedActivity => {
  const start = markupStart(bytes);
  if (start < 0) throw new ActivityFileError(NOT_AN_ACTIVITY_FILE);
  const reader = readXml(bytes, start, (root) => {
    const make = Object.hasOwn(XML_READERS, root) ? XML_READERS[root] : undefined;
    if (make === undefined) throw new ActivityFileError(NOT_AN_ACTIVITY_FILE);
    return make();
  });
  return reader.activity();
};
