// Strava's bulk export (Settings → My Account → Download or Delete Your Account → Request your archive): a zip
// whose `activities.csv` has one row per activity and whose `activities/` folder holds each recording as the
// device or app uploaded it (`4711.fit.gz`, `4712.gpx`, `4713.tcx.gz`). The CSV's header, as exports write it:
//   Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Max Heart Rate,
//   Relative Effort,Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,Bike Weight,Elapsed Time,
//   Moving Time,Distance,Max Speed,Average Speed,Elevation Gain,Elevation Loss,...,Average Heart Rate,...,Calories,...
// Some names repeat: the first Elapsed Time and Distance are the summary as the athlete's units show it (seconds;
// kilometres or miles, unsaid), the later ones the raw figures (seconds; metres), so the last of a name is read.
// Activity Date is UTC, written "Oct 3, 2021, 7:12:45 AM". An activity entered by hand has an empty Filename.
import { activityTypeFromLabel } from "@fit/activity-files";
import { fieldsOf, type CsvRecord } from "./csv.ts";
import type { ActivitySummary } from "./activity-workouts.ts";
import { instantOf } from "./local-time.ts";

/** Where each column the import reads is, by its header; stored with the import as JSON, hence a type. */
export type StravaFormat = {
  id: number;
  date: number;
  name: number | null;
  type: number | null;
  description: number | null;
  filename: number | null;
  elapsedS: number | null;
  movingS: number | null;
  distanceM: number | null;
  elevationGainM: number | null;
  energyKcal: number | null;
  avgHr: number | null;
  maxHr: number | null;
};

/** One row of activities.csv: what Strava knows of the activity, and where its recording is in the zip. */
export interface StravaActivity extends ActivitySummary {
  /** `strava:<Activity ID>`: the same in every export of the account. */
  externalId: string;
  /** The recording's path in the zip (`activities/4711.fit.gz`) and whether it is gzipped; null when entered by hand. */
  file: { path: string; gzipped: boolean } | null;
}

export type StravaRowOutcome = { activity: StravaActivity } | { refused: string };

/**
 * The rows' columns when the file's first line is Strava's header (it names Activity ID, Activity Date and
 * Activity Type), with where the rows start; undefined for any other file.
 */
export const recogniseStravaActivities = (head: Buffer): { format: StravaFormat; offset: number; line: number } | undefined => {
  const bom = head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  const end = head.indexOf(0x0a, bom);
  if (end === -1) return undefined;
  const names = fieldsOf(head.subarray(bom, end).toString("utf8").replace(/\r$/, ""), ",").map((name) => name.toLowerCase());
  const last = (name: string) => {
    const index = names.lastIndexOf(name);
    return index === -1 ? null : index;
  };
  const [id, date, type] = [last("activity id"), last("activity date"), last("activity type")];
  if (id === null || date === null || type === null) return undefined;
  // One Distance column alone is the summary, in units the file does not name.
  const distances = names.filter((name) => name === "distance").length;
  const format: StravaFormat = {
    id,
    date,
    type,
    name: last("activity name"),
    description: last("activity description"),
    filename: last("filename"),
    elapsedS: last("elapsed time"),
    movingS: last("moving time"),
    distanceM: distances > 1 ? last("distance") : null,
    elevationGainM: last("elevation gain"),
    energyKcal: last("calories"),
    avgHr: last("average heart rate"),
    maxHr: last("max heart rate"),
  };
  return { format, offset: end + 1, line: 2 };
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const STRAVA_DATE = /^([a-z]{3})[a-z]*\.? (\d{1,2}), (\d{4}),? (.+)$/i;

/** "Oct 3, 2021, 7:12:45 AM" (or an ISO date) in UTC, as the export writes it. */
const stravaInstant = (text: string): number | undefined => {
  const named = STRAVA_DATE.exec(text.trim());
  if (!named) return instantOf(text, null, "UTC");
  const month = MONTHS.indexOf(named[1]!.toLowerCase()) + 1;
  return month === 0 ? undefined : instantOf(`${named[3]}-${month}-${named[2]}`, named[4]!, "UTC");
};

/** A figure as the export writes it ("3600.0", "1,234.5"); empty, unreadable or negative is none. */
const figure = (text: string | undefined): number | null => {
  const value = text?.replaceAll(",", "").trim();
  if (!value) return null;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : null;
};

const text = (value: string | undefined) => value?.trim() || null;

/** One row as an activity, or why it cannot be one. Figures of 0 are what Strava writes where it has none; times are whole seconds. */
export const stravaActivityOf = (record: CsvRecord, format: StravaFormat): StravaRowOutcome => {
  const fields = fieldsOf(record.text, ",");
  const at = (column: number | null) => (column === null ? undefined : fields[column]);
  const measured = (column: number | null) => figure(at(column)) || null;
  const seconds = (column: number | null) => {
    const value = measured(column);
    return value === null ? null : Math.round(value);
  };
  const id = at(format.id)?.trim();
  if (!id || !/^\d+$/.test(id)) return { refused: "no Activity ID" };
  const dateText = at(format.date) ?? "";
  const startedAt = stravaInstant(dateText);
  if (startedAt === undefined) return { refused: `"${dateText.slice(0, 40)}" is not a date this import reads` };
  const path = text(at(format.filename));
  return {
    activity: {
      externalId: `strava:${id}`,
      activityType: activityTypeFromLabel(text(at(format.type))),
      name: text(at(format.name))?.slice(0, 200) ?? null,
      description: text(at(format.description))?.slice(0, 4000) ?? null,
      startedAt,
      durationS: seconds(format.elapsedS),
      movingDurationS: seconds(format.movingS),
      distanceM: measured(format.distanceM),
      elevationGainM: measured(format.elevationGainM),
      energyKcal: measured(format.energyKcal),
      avgHr: measured(format.avgHr),
      maxHr: measured(format.maxHr),
      file: path ? { path, gzipped: path.toLowerCase().endsWith(".gz") } : null,
    },
  };
};
