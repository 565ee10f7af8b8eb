import type { SensorReadings } from "./stats.ts";
import { numberIn } from "./xml-document.ts";

type Reading = keyof SensorReadings;

/**
 * Heart rate, cadence and power of a GPX `trkpt` or TCX `Trackpoint`, matched by local name wherever they sit in
 * the point, so any prefix will do: GPX heart rate comes as `gpxtpx:hr` or, from Garmin Connect, `ns3:hr`; power as
 * Strava's bare `<power>` or an extension's `PowerInWatts`; a TCX point's heart rate is the `Value` in its
 * `HeartRateBpm`. A treadmill's TCX points have no position, and their readings count all the same.
 */
const POINT_READINGS: Readonly<Record<"gpx" | "tcx", ReadonlyMap<string, Reading>>> = {
  gpx: new Map<string, Reading>([
    ["hr", "heartRates"],
    ["cad", "cadences"],
    ["power", "powers"],
    ["PowerInWatts", "powers"],
  ]),
  tcx: new Map<string, Reading>([
    ["HeartRateBpm", "heartRates"],
    ["Cadence", "cadences"],
    ["RunCadence", "cadences"],
    ["Watts", "powers"],
  ]),
};

/** Collects the readings of the points as their elements close; `take` is told of every element closing inside a point. */
export const sensorReadings = (format: "gpx" | "tcx") => {
  const names = POINT_READINGS[format];
  const readings = { heartRates: [] as number[], cadences: [] as number[], powers: [] as number[] };
  return {
    readings: readings as SensorReadings,
    take: (name: string, path: readonly string[], text: string) => {
      const reading = names.get(name) ?? (name === "Value" ? names.get(path.at(-1) ?? "") : undefined);
      const value = reading === undefined ? null : numberIn(text);
      if (reading !== undefined && value !== null) readings[reading].push(value);
    },
  };
};
