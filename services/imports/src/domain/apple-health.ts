// Apple Health's export (`apple_health_export/export.xml`): the children of <HealthData> read one at a time
// (docs/decisions/0078-apple-health-and-archives.md). Body mass becomes weigh-ins, body-fat percentage and waist
// circumference body composition readings, <Workout> a workout; every other record (heart rate, steps: nearly all
// of a real export) is recognised by its first bytes and skipped without being parsed.
import { BodyFatPct } from "@fit/contracts";
import { CM_PER_IN, KG_PER_LB } from "@fit/units";
import { appleInstant, parseElement, type Node } from "./apple-element.ts";
import { workoutOf, type AppleWorkout } from "./apple-workout.ts";
import type { ArchiveEntry } from "./archive.ts";
import type { XmlElement } from "./xml-elements.ts";

/** The root element of an export. */
export const APPLE_ROOT = "HealthData";

const KG_PER: Record<string, number> = { kg: 1, lb: KG_PER_LB, g: 0.001, st: KG_PER_LB * 14 };
const CM_PER: Record<string, number> = { cm: 1, in: CM_PER_IN, m: 100, mm: 0.1, ft: CM_PER_IN * 12 };

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** What one child of <HealthData> becomes. */
export type AppleRow =
  | { kind: "weigh-in"; externalId: string; ts: number; weightKg: number }
  | { kind: "body-fat"; externalId: string; ts: number; bodyFatPct: number }
  | { kind: "measurement"; externalId: string; ts: number; site: "waist"; valueCm: number }
  | { kind: "workout"; workout: AppleWorkout }
  | { kind: "refused"; reason: string }
  | { kind: "skipped" };

const SKIPPED: AppleRow = { kind: "skipped" };

// The start of every element this import reads; anything else is skipped on these bytes alone.
const WANTED = [
  "HKQuantityTypeIdentifierBodyMass\"",
  "HKQuantityTypeIdentifierBodyFatPercentage\"",
  "HKQuantityTypeIdentifierWaistCircumference\"",
].map((type) => Buffer.from(`type="${type}`));
const RECORD = Buffer.from("<Record");
const WORKOUT = Buffer.from("<Workout");

/** Only the start tag is looked at: a record's type is among its first attributes. */
const isWanted = (bytes: Buffer) => {
  const startTag = bytes.subarray(0, Math.min(bytes.length, 512));
  if (startTag.subarray(0, WORKOUT.length).equals(WORKOUT) && (startTag[WORKOUT.length] === 0x20 || startTag[WORKOUT.length] === 0x0a)) return true;
  return startTag.subarray(0, RECORD.length).equals(RECORD) && WANTED.some((type) => startTag.includes(type));
};

const recordOf = (node: Node): AppleRow => {
  const { type, unit = "", value, startDate } = node.attributes;
  const ts = appleInstant(startDate);
  if (ts === undefined) return { kind: "refused", reason: `"${String(startDate).slice(0, 40)}" is not a date this import reads` };
  const number = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(number)) return { kind: "refused", reason: `"${String(value).slice(0, 40)}" is not a number` };
  switch (type) {
    case "HKQuantityTypeIdentifierBodyMass": {
      const factor = KG_PER[unit];
      if (!factor) return { kind: "refused", reason: `body mass in "${unit.slice(0, 20)}", not kg, lb, g or st` };
      return { kind: "weigh-in", externalId: `weigh-in:${ts}`, ts, weightKg: round(number * factor, 2) };
    }
    case "HKQuantityTypeIdentifierBodyFatPercentage": {
      // Health stores a fraction (0.215 for 21.5 %) under the unit "%".
      if (unit !== "%") return { kind: "refused", reason: `body fat in "${unit.slice(0, 20)}", not %` };
      const bodyFatPct = round(number * 100, 1);
      if (!BodyFatPct.safeParse(bodyFatPct).success) return { kind: "refused", reason: `body fat of ${bodyFatPct} %, not 1 to 80 %` };
      return { kind: "body-fat", externalId: `body-fat:${ts}`, ts, bodyFatPct };
    }
    case "HKQuantityTypeIdentifierWaistCircumference": {
      const factor = CM_PER[unit];
      if (!factor) return { kind: "refused", reason: `waist in "${unit.slice(0, 20)}", not cm, m, mm, in or ft` };
      return { kind: "measurement", externalId: `measurement:waist:${ts}`, ts, site: "waist", valueCm: round(number * factor, 1) };
    }
    default:
      return SKIPPED;
  }
};

/** What one child of <HealthData> becomes; a record of a type this import does not read is skipped unparsed. */
export const appleRowOf = (element: XmlElement): AppleRow => {
  if (!isWanted(element.bytes)) return SKIPPED;
  let node: Node;
  try {
    node = parseElement(element.bytes);
  } catch (error) {
    return { kind: "refused", reason: `not well-formed XML: ${(error as Error).message.slice(0, 120)}` };
  }
  if (node.name === "Workout") {
    const workout = workoutOf(node);
    return "refused" in workout ? { kind: "refused", reason: workout.refused } : { kind: "workout", workout };
  }
  return recordOf(node);
};

/**
 * How an Apple Health export is stored with its import (as JSON, hence a type); `entry` when it came as
 * export.zip, the export.xml inside it that is read.
 */
export type AppleFormat = { layout: "apple_health"; entry?: ArchiveEntry };

/**
 * Whether the file's first bytes are an Apple Health export.xml: its document type or root names <HealthData>
 * (Apple's declaration and document type take about 10 KiB, well inside the first piece).
 */
export const isAppleExport = (head: Buffer) => {
  const start = head.subarray(0, 64 * 1024).toString("latin1");
  return /^(\ufeff|\xef\xbb\xbf)?\s*</.test(start) && /<!DOCTYPE\s+HealthData[\s[>]|<HealthData[\s>/]/.test(start);
};
