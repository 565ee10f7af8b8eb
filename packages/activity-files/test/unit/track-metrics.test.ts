import { describe, expect, it } from "vitest";
import {
  distanceM,
  elevationGainM,
  haversineM,
  movingDurationS,
  timeSpan,
  trackMetrics,
  type TrackSample,
} from "../../src/track-metrics.ts";

/** 1° of latitude on a sphere of radius 6 371 008.8 m. */
const DEGREE_M = (6_371_008.8 * Math.PI) / 180;

/** Points going north `stepM` metres every `stepS` seconds from t = 0. */
const northward = (steps: number, stepM: number, stepS: number, startS = 0): TrackSample[] =>
  Array.from({ length: steps + 1 }, (_, i) => ({ lat: (i * stepM) / DEGREE_M, lon: 0, ele: null, timeMs: (startS + i * stepS) * 1000 }));

describe("haversine distance", () => {
  it("measures a degree of latitude as 111 195.08 m", () => {
    expect(haversineM({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195.08, 2);
  });

  it("measures a short step along the 60th parallel at half the equatorial length", () => {
    expect(haversineM({ lat: 60, lon: 10 }, { lat: 60, lon: 10.001 })).toBeCloseTo(DEGREE_M * 0.001 * 0.5, 4);
  });

  it("does not count the jump between two segments", () => {
    const first = northward(10, 10, 5);
    const second = northward(10, 10, 5).map((p) => ({ ...p, lat: p.lat + 1 }));
    expect(distanceM([first, second])).toBeCloseTo(200, 6);
  });
});

describe("moving time", () => {
  it("counts intervals just above 0.5 m/s and not those just below", () => {
    expect(movingDurationS([northward(10, 5.1, 10)])).toBe(100);
    expect(movingDurationS([northward(10, 4.9, 10)])).toBe(0);
  });

  it("leaves out a gap of 5 minutes or more even when the position moved", () => {
    const before = northward(10, 10, 5);
    const after = northward(10, 10, 5, 50 + 300).map((p) => ({ ...p, lat: p.lat + 2000 / DEGREE_M }));
    expect(movingDurationS([[...before, ...after]])).toBe(100);
  });

  it("is unknown when any point has no time", () => {
    const track = northward(10, 10, 5);
    track[4] = { ...track[4]!, timeMs: null };
    expect(movingDurationS([track])).toBeNull();
  });
});

describe("elevation gain", () => {
  it("counts a steady climb in full", () => {
    expect(elevationGainM([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110])).toBe(10);
  });

  it("ignores a ±1 m jitter, even one spanning exactly 2 m in decimal elevations", () => {
    expect(elevationGainM([100, 101, 99, 101, 99, 101, 99, 100])).toBe(0);
    expect(elevationGainM([100.3, 101.3, 99.3, 101.3, 99.3, 101.3])).toBe(0);
  });

  it("counts a rise of just over 2 m from its foot", () => {
    expect(elevationGainM([100, 99, 101.01])).toBe(2.01);
  });

  it("counts each of two climbs separated by a descent", () => {
    expect(elevationGainM([100, 105, 110, 105, 100, 105, 110])).toBe(20);
  });

  it("is zero without elevations", () => {
    expect(elevationGainM([])).toBe(0);
  });
});

describe("track metrics", () => {
  it("spans from the earliest to the latest time whatever their order", () => {
    expect(timeSpan([5_000, 1_000, null, 9_000])).toEqual({ startMs: 1_000, durationS: 8 });
    expect(timeSpan([null, null])).toBeNull();
  });

  it("sums a timed, climbing track", () => {
    const track = northward(100, 10, 4).map((p, i) => ({ ...p, ele: 200 + i * 0.5 }));
    expect(trackMetrics([track])).toEqual({ startedAt: 0, durationS: 400, movingDurationS: 400, distanceM: expect.closeTo(1000, 6), elevationGainM: 50 });
  });

  it("knows no time and no elevation when the points carry none", () => {
    const track = northward(10, 10, 5).map((p) => ({ ...p, timeMs: null }));
    expect(trackMetrics([track])).toEqual({ startedAt: null, durationS: null, movingDurationS: null, distanceM: expect.closeTo(100, 6), elevationGainM: null });
  });
});
