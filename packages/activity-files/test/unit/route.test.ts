import { describe, expect, it } from "vitest";
import { routeOf } from "../../src/route.ts";
import type { TrackSample } from "../../src/track-metrics.ts";
import { straightTrack } from "../support/activity-files.ts";

const START = new Date("2024-05-01T07:00:00Z");

const samples = (options: Parameters<typeof straightTrack>[0]): TrackSample[] =>
  straightTrack(options).map((point) => ({ lat: point.lat, lon: point.lon, ele: point.ele ?? null, timeMs: point.time.getTime() }));

describe("the route of a track", () => {
  it("splits every kilometre at its interpolated time, and keeps the shorter last one", () => {
    // 10 m every 3 s for 2 500 m: 300 s a kilometre, 150 s for the last 500 m.
    const route = routeOf([samples({ start: START, points: 251, stepM: 10, stepS: 3 })])!;
    expect(route.splits).toEqual([
      { km: 1, distanceM: 1000, durationS: 300 },
      { km: 2, distanceM: 1000, durationS: 300 },
      { km: 3, distanceM: 500, durationS: 150 },
    ]);
  });

  it("times a kilometre mark between two points by where it falls between them", () => {
    // 300 m every 60 s: the mark at 1 000 m is a third of the way from 900 m to 1 200 m, at 200 s.
    expect(routeOf([samples({ start: START, points: 5, stepM: 300, stepS: 60 })])!.splits).toEqual([
      { km: 1, distanceM: 1000, durationS: 200 },
      { km: 2, distanceM: 200, durationS: 40 },
    ]);
  });

  it("does not count the gap between two segments as distance, and has no splits for an untimed track", () => {
    const first = samples({ start: START, points: 61, stepM: 10, stepS: 3 });
    const second = samples({ start: new Date(START.getTime() + 600_000), points: 61, stepM: 10, stepS: 3 }).map((p) => ({ ...p, lon: p.lon + 0.1 }));
    expect(routeOf([first, second])!.splits.map((split) => split.distanceM)).toEqual([1000, 200]);
    expect(routeOf([first.map((p) => ({ ...p, timeMs: null }))])!.splits).toEqual([]);
  });

  it("thins a long track to at most 1000 points, each segment still ending where it ended, to five decimals", () => {
    const long = samples({ start: START, points: 20_001, stepM: 1, stepS: 1 });
    const [line] = routeOf([long])!.segments;
    expect(line!.length).toBeLessThanOrEqual(1001);
    expect(line!.at(-1)).toEqual([Math.round(long.at(-1)!.lat * 1e5) / 1e5, Math.round(long.at(-1)!.lon * 1e5) / 1e5]);
    expect(line![0]).toEqual([52.52, 13.405]);
  });

  it("is null without a positioned segment", () => {
    expect(routeOf([])).toBeNull();
  });
});
