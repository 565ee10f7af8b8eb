import type { Document, Element } from "@xmldom/xmldom";
import type { SensorReadings } from "./stats.ts";
import { elementChildren } from "./xml-document.ts";

type Reading = keyof SensorReadings;
type Readings = Record<Reading, number[]>;

/**
 * Read from the XML rather than from togeojson 7.1.3, which loses them: for GPX it recognizes heart rate only under
 * the `gpxtpx:` prefix (Garmin Connect exports write `ns3:hr`), and for TCX it drops every trackpoint without a
 * position, heart rate included (a treadmill run has none). Matched by local name, so any prefix will do.
 */
const POINT_READINGS: Readonly<Record<"gpx" | "tcx", { point: string; readings: ReadonlyMap<string, Reading> }>> = {
  gpx: {
    point: "trkpt",
    readings: new Map<string, Reading>([
      ["hr", "heartRates"],
      ["cad", "cadences"],
      ["power", "powers"],
      ["PowerInWatts", "powers"],
    ]),
  },
  tcx: {
    point: "Trackpoint",
    readings: new Map<string, Reading>([
      ["HeartRateBpm", "heartRates"],
      ["Cadence", "cadences"],
      ["RunCadence", "cadences"],
      ["Watts", "powers"],
    ]),
  },
};

const collect = (element: Element, readings: ReadonlyMap<string, Reading>, into: Readings) => {
  for (const child of elementChildren(element)) {
    const reading = readings.get(child.localName ?? "");
    if (reading === undefined) {
      collect(child, readings, into);
      continue;
    }
    const value = Number.parseFloat(child.textContent ?? "");
    if (Number.isFinite(value)) into[reading].push(value);
  }
};

export const sensorReadings = (doc: Document, format: "gpx" | "tcx"): SensorReadings => {
  const { point, readings } = POINT_READINGS[format];
  const into: Readings = { heartRates: [], cadences: [], powers: [] };
  for (const element of doc.getElementsByTagName(point)) collect(element, readings, into);
  return into;
};
