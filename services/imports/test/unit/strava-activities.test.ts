import { describe, expect, it } from "vitest";
import { csvRecords } from "../../src/domain/csv.ts";
import { recogniseStravaActivities, stravaActivityOf } from "../../src/domain/strava-activities.ts";

// The header of activities.csv as Strava's bulk export writes it (abridged after Calories): Elapsed Time, Distance
// and Max Heart Rate twice, the first as the athlete's units show them, the second raw.
const HEADER = [
  "Activity ID", "Activity Date", "Activity Name", "Activity Type", "Activity Description", "Elapsed Time", "Distance", "Max Heart Rate",
  "Relative Effort", "Commute", "Activity Private Note", "Activity Gear", "Filename", "Athlete Weight", "Bike Weight", "Elapsed Time",
  "Moving Time", "Distance", "Max Speed", "Average Speed", "Elevation Gain", "Elevation Loss", "Elevation Low", "Elevation High",
  "Max Grade", "Average Grade", "Max Cadence", "Average Cadence", "Max Heart Rate", "Average Heart Rate", "Max Watts", "Average Watts", "Calories",
].join(",");

const line = (values: Record<string, string>) =>
  [
    values.id, values.date, values.name ?? "", values.type ?? "Run", values.description ?? "", values.elapsed ?? "", values.distanceShown ?? "", values.maxHrShown ?? "",
    "", "false", "", "", values.filename ?? "", "80.0", "", values.elapsed ?? "",
    values.moving ?? "", values.distance ?? "", "", "", values.gain ?? "", "", "", "",
    "", "", "", "", values.maxHr ?? "", values.avgHr ?? "", "", "", values.calories ?? "",
  ].join(",");

async function* once(bytes: Buffer) {
  yield bytes;
}

const readAll = async (file: string) => {
  const bytes = Buffer.from(file);
  const recognised = recogniseStravaActivities(bytes);
  if (!recognised) throw new Error("not recognised");
  const rows = [];
  for await (const record of csvRecords(once(bytes.subarray(recognised.offset)), recognised.offset, recognised.line)) {
    rows.push({ line: record.line, ...stravaActivityOf(record, recognised.format) });
  }
  return rows;
};

describe("Strava's activities.csv", () => {
  it("reads each activity: its name, description, type, UTC date, raw figures and its recording's file", async () => {
    const file = `\ufeff${HEADER}\n` +
      line({
        id: "4711", date: '"Oct 3, 2021, 7:12:45 AM"', name: '"Morning Run, by the river"', description: '"Easy pace.\nLegs felt ""heavy"""',
        elapsed: "3600", distanceShown: "10.02", maxHrShown: "171", filename: "activities/4711.fit.gz", moving: "3480.0", distance: "10020.5",
        gain: "42.0", maxHr: "171.0", avgHr: "148.2", calories: "702.0",
      }) + "\n" +
      line({ id: "4712", date: '"Jan 15, 2022, 6:05:00 PM"', name: "Zwift", type: "Virtual Ride", elapsed: "2700", moving: "2699.6", filename: "activities/4712.tcx", distance: "0.0", calories: "0.0" }) + "\n" +
      line({ id: "4713", date: '"Mar 1, 2022, 12:00:00 PM"', name: "Gym", type: "Weight Training", elapsed: "1800" }) + "\n";
    const rows = await readAll(file);
    expect(rows).toEqual([
      {
        line: 2,
        activity: {
          externalId: "strava:4711", activityType: "run", name: "Morning Run, by the river", description: 'Easy pace.\nLegs felt "heavy"',
          startedAt: Date.UTC(2021, 9, 3, 7, 12, 45), durationS: 3600, movingDurationS: 3480, distanceM: 10_020.5, elevationGainM: 42,
          energyKcal: 702, avgHr: 148.2, maxHr: 171, file: { path: "activities/4711.fit.gz", gzipped: true },
        },
      },
      {
        line: 4,
        activity: expect.objectContaining({
          externalId: "strava:4712", activityType: "ride", startedAt: Date.UTC(2022, 0, 15, 18, 5), movingDurationS: 2700, distanceM: null, energyKcal: null,
          file: { path: "activities/4712.tcx", gzipped: false },
        }),
      },
      { line: 5, activity: expect.objectContaining({ externalId: "strava:4713", activityType: "strength_training", description: null, startedAt: Date.UTC(2022, 2, 1, 12), file: null }) },
    ]);
  });

  it("refuses a row without an id or a date it reads, and reads the rows after it", async () => {
    const rows = await readAll(`${HEADER}\n${line({ id: "", date: '"Oct 3, 2021, 7:12:45 AM"' })}\n${line({ id: "9", date: "yesterday" })}\n${line({ id: "10", date: "2021-10-03 07:12:45" })}\n`);
    expect(rows).toEqual([
      { line: 2, refused: "no Activity ID" },
      { line: 3, refused: '"yesterday" is not a date this import reads' },
      { line: 4, activity: expect.objectContaining({ externalId: "strava:10", startedAt: Date.UTC(2021, 9, 3, 7, 12, 45) }) },
    ]);
  });

  it("reads no distance from a file with one Distance column, whose unit it does not name", async () => {
    const rows = await readAll("Activity ID,Activity Date,Activity Type,Distance,Elapsed Time\n1,\"Oct 3, 2021, 7:12:45 AM\",Run,10.02,3600\n");
    expect(rows[0]).toMatchObject({ activity: { distanceM: null, durationS: 3600 } });
  });

  it("recognises only Strava's header", () => {
    expect(recogniseStravaActivities(Buffer.from("Date,Weight\n2021-01-01,80\n"))).toBeUndefined();
    expect(recogniseStravaActivities(Buffer.from("Activity ID,Activity Date,Activity Type"))).toBeUndefined();
    expect(recogniseStravaActivities(Buffer.from(`${HEADER}\r\n`))).toMatchObject({ line: 2, format: { id: 0, date: 1, type: 3, filename: 12, elapsedS: 15, distanceM: 17, maxHr: 28 } });
  });
});
