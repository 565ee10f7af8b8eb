import { describe, expect, it } from "vitest";
import { ActivityFileError, ActivityFileTooLarge, parseActivityFile, type ActivityFileFormat } from "../../src/activity-file.ts";
import { ironman, makeFit, makeFitOfMessages, makeGpx, makeTcx, straightTrack, withPause, type TrackPoint } from "../support/activity-files.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const START = new Date("2024-05-01T07:00:00Z");

/**
 * 125 steps of 8 m every 3 s: 1000 m in 375 s, climbing 0.4 m a step (50 m). Heart rate alternates 140 and 160 over
 * 126 points, one 140 raised to 175: mean 18 935 / 126 = 150.3.
 */
const climbingRun = (): TrackPoint[] =>
  straightTrack({ start: START, points: 126, stepM: 8, stepS: 3, startEle: 50, climbPerStepM: 0.4 }).map((point, i) => ({
    ...point,
    hr: i === 100 ? 175 : i % 2 === 0 ? 140 : 160,
  }));
const EXPECTED_AVG_HR = 150;

const jittered = (points: readonly TrackPoint[]) => points.map((point, i) => ({ ...point, ele: point.ele! + (i % 2 === 0 ? 1 : -1) }));

/** Every format made to carry nothing but the track, so each has to compute its totals from the points. */
const trackOnly: Record<ActivityFileFormat, (points: TrackPoint[]) => Uint8Array> = {
  gpx: (points) => utf8(makeGpx(points)),
  tcx: (points) => utf8(makeTcx(points)),
  fit: (points) => makeFit({ sport: "running", start: START, elapsedS: 0, timerS: 0, distanceM: 0, points, withoutSession: true }),
};

/** The one activity of a file that is not multisport. */
const parseOne = (bytes: Uint8Array) => {
  const activities = parseActivityFile(bytes);
  expect(activities).toHaveLength(1);
  return activities[0]!;
};

const expectRefusal = (bytes: Uint8Array, message: string | RegExp) => {
  expect(() => parseActivityFile(bytes)).toThrow(ActivityFileError);
  expect(() => parseActivityFile(bytes)).toThrow(message);
};

describe.each(["gpx", "tcx", "fit"] as const)("a %s track", (format) => {
  it("measures distance, time, climb and heart rate from its points", () => {
    const activity = parseOne(trackOnly[format](climbingRun()));
    expect(activity).toMatchObject({ format, startedAt: START.getTime(), durationS: 375, movingDurationS: 375, avgHr: EXPECTED_AVG_HR, maxHr: 175 });
    expect(Math.abs(activity.distanceM! - 1000)).toBeLessThanOrEqual(5);
    expect(activity.elevationGainM).toBeCloseTo(50, 0);
  });

  it("averages cadence leaving out its zeros (coasting) and power keeping them", () => {
    const pedalling = climbingRun().map((point, i) => ({ ...point, cadence: i % 2 === 0 ? 90 : 0, powerW: i % 2 === 0 ? 300 : 0 }));
    expect(parseOne(trackOnly[format](pedalling))).toMatchObject({ avgCadence: 90, avgPowerW: 150 });
  });

  it("leaves a 10-minute standstill out of the moving time but not out of the elapsed time", () => {
    const activity = parseOne(trackOnly[format](withPause(climbingRun(), { at: 60, pauseS: 600, stepS: 5 })));
    expect(activity).toMatchObject({ durationS: 975, movingDurationS: 375 });
    expect(Math.abs(activity.distanceM! - 1000)).toBeLessThanOrEqual(5);
  });

  it("does not count a ±1 m altitude jitter as climbing", () => {
    const flat = straightTrack({ start: START, points: 150, stepM: 5, stepS: 2, startEle: 100 });
    expect(parseOne(trackOnly[format](jittered(flat))).elevationGainM).toBe(0);
    const gain = parseOne(trackOnly[format](jittered(climbingRun()))).elevationGainM!;
    expect(Math.abs(gain - 50)).toBeLessThanOrEqual(2);
  });
});

describe("GPX", () => {
  it("takes the track's name and type", () => {
    const gpx = makeGpx(climbingRun(), { name: "Tempo & hills <3", type: "running" });
    expect(parseOne(utf8(gpx))).toMatchObject({ name: "Tempo & hills <3", activityType: "run", energyKcal: null });
  });

  it.each([
    ["running", "run"],
    ["TrailRun", "run"],
    ["cycling", "ride"],
    ["mountain_biking", "ride"],
    ["VirtualRide", "ride"],
    ["walking", "walk"],
    ["hiking", "hike"],
    ["swimming", "swim"],
    ["motorcycling", "other"],
    ["kitesurfing", "other"],
  ])("maps the type %s to %s", (type, activityType) => {
    expect(parseOne(utf8(makeGpx(climbingRun(), { type }))).activityType).toBe(activityType);
  });

  it("reads heart rate whatever prefix the extension namespace has (Garmin Connect writes ns3:)", () => {
    const gpx = makeGpx(climbingRun()).replaceAll("gpxtpx", "ns3");
    expect(parseOne(utf8(gpx))).toMatchObject({ avgHr: EXPECTED_AVG_HR, maxHr: 175 });
  });

  it("is of type other, with no name, when the track states neither", () => {
    expect(parseOne(utf8(makeGpx(climbingRun())))).toMatchObject({ activityType: "other", name: null });
  });

  it("refuses a file without track points", () => {
    expectRefusal(utf8(`<gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><name>x</name><trkseg></trkseg></trk></gpx>`), "the file has no track points");
  });

  it("refuses a track without timestamps", () => {
    expectRefusal(utf8(makeGpx(climbingRun()).replace(/<time>[^<]*<\/time>/g, "")), "the file has no timestamps");
  });
});

describe("TCX", () => {
  it("takes the lap's calories and maps the sport", () => {
    const activity = parseOne(utf8(makeTcx(climbingRun(), { sport: "Biking", calories: 321 })));
    expect(activity).toMatchObject({ format: "tcx", activityType: "ride", energyKcal: 321, name: null });
  });

  it.each([
    ["Running", "run"],
    ["Biking", "ride"],
    ["Other", "other"],
  ] as const)("maps Sport=%s to %s", (sport, activityType) => {
    expect(parseOne(utf8(makeTcx(climbingRun(), { sport }))).activityType).toBe(activityType);
  });

  it("prefers the lap's stated distance to the GPS track", () => {
    expect(parseOne(utf8(makeTcx(climbingRun(), { distanceM: 1042.37 }))).distanceM).toBe(1042.4);
  });

  it("takes everything from the laps when no trackpoint has a position (a treadmill)", () => {
    const lap = (start: string, seconds: number, metres: number, kcal: number, avg: number, max: number) =>
      `<Lap StartTime="${start}"><TotalTimeSeconds>${seconds}</TotalTimeSeconds><DistanceMeters>${metres}</DistanceMeters>` +
      `<Calories>${kcal}</Calories><AverageHeartRateBpm><Value>${avg}</Value></AverageHeartRateBpm>` +
      `<MaximumHeartRateBpm><Value>${max}</Value></MaximumHeartRateBpm><Track><Trackpoint><Time>${start}</Time></Trackpoint></Track></Lap>`;
    const tcx =
      `<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Running">` +
      lap("2024-05-01T07:00:00Z", 600, 1500, 100, 140, 150) +
      lap("2024-05-01T07:10:30Z", 300, 800, 60, 152, 165) +
      `</Activity></Activities></TrainingCenterDatabase>`;
    expect(parseOne(utf8(tcx))).toEqual({
      format: "tcx",
      activityType: "run",
      name: null,
      startedAt: START.getTime(),
      durationS: 930,
      movingDurationS: 900,
      distanceM: 2300,
      elevationGainM: null,
      energyKcal: 160,
      avgHr: 144,
      maxHr: 165,
      avgPowerW: null,
      avgCadence: null,
      route: null,
    });
  });
});

describe("FIT", () => {
  it("takes the session's totals over what the records would add up to", () => {
    const fit = makeFit({
      sport: "running",
      start: START,
      elapsedS: 3600,
      timerS: 3300,
      distanceM: 10_012.34,
      ascentM: 87,
      calories: 712,
      avgHr: 151,
      maxHr: 178,
      points: climbingRun(),
    });
    expect(parseOne(fit)).toEqual({
      format: "fit",
      activityType: "run",
      name: null,
      startedAt: START.getTime(),
      durationS: 3600,
      movingDurationS: 3300,
      distanceM: 10_012.3,
      elevationGainM: 87,
      energyKcal: 712,
      avgHr: 151,
      maxHr: 178,
      avgPowerW: null,
      avgCadence: null,
      route: { segments: [expect.any(Array)], splits: [{ km: 1, distanceM: 1000, durationS: 375 }] },
    });
  });

  it("fills what the session leaves out from the records, but never the energy", () => {
    const fit = makeFit({ sport: "cycling", start: START, elapsedS: 400, timerS: 375, distanceM: 1000, points: climbingRun() });
    expect(parseOne(fit)).toMatchObject({ activityType: "ride", avgHr: EXPECTED_AVG_HR, maxHr: 175, energyKcal: null });
    expect(parseOne(fit).elevationGainM).toBeCloseTo(50, 0);
  });

  it.each([
    ["running", "generic", "run"],
    ["cycling", "road", "ride"],
    ["swimming", "lapSwimming", "swim"],
    ["walking", "generic", "walk"],
    ["hiking", "generic", "hike"],
    ["training", "strengthTraining", "strength_training"],
    ["training", "generic", "strength_training"],
    ["training", "yoga", "yoga"],
    ["rowing", "generic", "rowing"],
    ["fitnessEquipment", "indoorRowing", "rowing"],
    ["fitnessEquipment", "elliptical", "elliptical"],
    ["fitnessEquipment", "treadmill", "run"],
    ["hiit", "amrap", "crossfit"],
    ["golf", "generic", "other"],
  ])("maps sport %s / %s to %s", (sport, subSport, activityType) => {
    const fit = makeFit({ sport, subSport, start: START, elapsedS: 1800, timerS: 1800, distanceM: 0 });
    expect(parseOne(fit).activityType).toBe(activityType);
  });

  it("makes each session of a multisport file an activity of its own, with its totals and its part of the track", () => {
    const { legs, bytes } = ironman(START);
    const activities = parseActivityFile(bytes);
    expect(activities.map((activity) => [activity.activityType, activity.name])).toEqual([
      ["swim", null], ["other", "Transition 1"], ["ride", null], ["other", "Transition 2"], ["run", null],
    ]);
    activities.forEach((activity, i) => {
      const leg = legs[i]!;
      expect(activity).toMatchObject({
        format: "fit", startedAt: leg.start.getTime(), durationS: leg.elapsedS, distanceM: leg.distanceM, energyKcal: leg.calories,
        avgHr: leg.avgHr, maxHr: leg.maxHr,
      });
      expect(activity.route!.segments).toEqual([expect.any(Array)]);
      expect(activity.route!.segments[0]).toHaveLength(Math.min(leg.points.length, 1000));
    });
  });

  it("refuses a file whose checksum does not match, or that is cut short", () => {
    const fit = makeFit({ sport: "running", start: START, elapsedS: 600, timerS: 600, distanceM: 2000, points: climbingRun() });
    const corrupted = fit.slice();
    corrupted[Math.floor(fit.length / 2)]! ^= 0xff;
    expectRefusal(corrupted, /FIT file is damaged/);
    expectRefusal(fit.slice(0, fit.length - 40), /FIT file is damaged/);
  });
});

describe("refusals", () => {
  it("refuses an empty file", () => {
    expectRefusal(new Uint8Array(), "the file is empty");
  });

  it("refuses bytes that are no activity file", () => {
    let seed = 7;
    const noise = Uint8Array.from({ length: 4096 }, () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) >>> 24);
    expectRefusal(noise, "not a GPX, TCX or FIT file");
    expectRefusal(utf8(`<?xml version="1.0"?><kml><Document/></kml>`), "not a GPX, TCX or FIT file");
  });

  it("refuses a document type or entity declaration outright (billion laughs, XXE)", () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><gpx>&lol2;</gpx>`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><gpx><trk><name>&xxe;</name></trk></gpx>`;
    expectRefusal(utf8(laughs), /DOCTYPE or ENTITY/);
    expectRefusal(utf8(xxe), /DOCTYPE or ENTITY/);
  });

  it("refuses truncated XML as malformed", () => {
    const gpx = makeGpx(climbingRun());
    expectRefusal(utf8(gpx.slice(0, gpx.length / 2)), "malformed XML");
  });
});

/** What no file may make the reader do, whatever it holds (docs/security.md#25-activity-file-imports). */
describe("caps", () => {
  const gpxOf = (inner: string) => utf8(`<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${inner}</trkseg></trk></gpx>`);
  const expectTooLarge = (bytes: Uint8Array, message: RegExp) => {
    expect(() => parseActivityFile(bytes)).toThrow(ActivityFileTooLarge);
    expect(() => parseActivityFile(bytes)).toThrow(message);
  };

  it("refuses elements nested deeper than 32 levels", () => {
    expectRefusal(gpxOf(`${"<extensions>".repeat(100_000)}${"</extensions>".repeat(100_000)}`), "the file nests elements deeper than 32 levels");
  });

  it("refuses an entity it does not know, as there is no document type to declare one", () => {
    expectRefusal(gpxOf(`<trkpt lat="1" lon="2"><name>&lol9;</name></trkpt>`), "malformed XML");
    expectRefusal(utf8(`<?xml version="1.0"?><!DOCTYPE gpx><gpx/>`), /DOCTYPE or ENTITY/);
  });

  it("refuses more than 250 000 track points, in GPX, TCX and FIT alike", () => {
    const point = `<trkpt lat="52.5" lon="13.4"><time>2024-05-01T07:00:00Z</time></trkpt>`;
    expectTooLarge(gpxOf(point.repeat(250_001)), /more than 250000 track points/);
    const trackpoint = `<Trackpoint><Time>2024-05-01T07:00:00Z</Time></Trackpoint>`;
    const tcx = `<TrainingCenterDatabase><Activities><Activity Sport="Running"><Lap StartTime="2024-05-01T07:00:00Z"><Track>${trackpoint.repeat(250_001)}</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
    expectTooLarge(utf8(tcx), /more than 250000 track points/);
    expectTooLarge(makeFitOfMessages({ global: 20, count: 250_001, fieldBytes: 4 }), /more than 250000 track points/);
  });

  it("refuses millions of tiny elements, and a FIT file of millions of tiny messages", () => {
    expectTooLarge(gpxOf("<a/>".repeat(1_500_001)), /more than 1500000 elements/);
    expectTooLarge(makeFitOfMessages({ global: 0xff00, count: 400_001, fieldBytes: 1 }), /more than 400000 FIT messages/);
  });

  it("refuses an element with too many attributes, or with an attribute or a text too long", () => {
    const attributes = Array.from({ length: 65 }, (_, i) => `a${i}="1"`).join(" ");
    expectTooLarge(gpxOf(`<trkpt lat="1" lon="2" ${attributes}/>`), /more than 64 attributes/);
    expectTooLarge(gpxOf(`<trkpt lat="${"1".repeat(5000)}" lon="2"/>`), /attribute longer than 4096 characters/);
    expectTooLarge(gpxOf(`<trkpt lat="1" lon="2"><desc>${"x".repeat(70_000)}</desc></trkpt>`), /text longer than 65536 characters/);
  });

  it("keeps a file's name to the 200 characters a summary holds", () => {
    const named = parseOne(utf8(makeGpx(climbingRun(), { name: "n".repeat(5000) })));
    expect(named.name).toBe("n".repeat(200));
  });
});

describe("a 2 MB GPX", () => {
  // Correctness only: a timed assertion here would fail on a busy machine (speed belongs in bench/).
  it("is read to its last point", () => {
    const points = straightTrack({ start: START, points: 9_600, stepM: 3, stepS: 1, startEle: 40, hr: 150 });
    const bytes = utf8(makeGpx(points));
    expect(bytes.length).toBeGreaterThan(2_000_000);
    const activity = parseOne(bytes);
    expect(activity.durationS).toBe(9_599);
  });
});
