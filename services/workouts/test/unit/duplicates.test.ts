import { describe, expect, it } from "vitest";
import { overlapShare, richerFigures, richness, sameActivity, type Figures } from "../../src/domain/duplicates.ts";

const at = (iso: string) => new Date(`2026-08-02T${iso}Z`);
const run = (start: string, durationS: number, activityType = "run") => ({ startedAt: at(start), durationS, activityType });

describe("the same activity", () => {
  it("is the share of the longer recording both cover", () => {
    expect(overlapShare(run("06:00:00", 1800), run("06:01:00", 1740))).toBeCloseTo(1740 / 1800);
    expect(overlapShare(run("06:00:00", 1800), run("07:00:00", 1800))).toBe(0);
  });

  it("needs the same type, a start within 5 minutes and 80 % in common, and takes the best overlap", () => {
    const logged = [run("06:00:00", 1800), run("06:04:00", 1800), run("06:00:00", 1800, "ride")];
    expect(sameActivity(logged, run("06:00:30", 1800))).toBe(logged[0]);
    expect(sameActivity(logged, run("06:03:30", 1800))).toBe(logged[1]);
    expect(sameActivity([logged[0]!], run("06:06:00", 1800))).toBeNull();
    expect(sameActivity([logged[0]!], run("06:00:00", 1200))).toBeNull();
    expect(sameActivity([logged[2]!], run("06:00:00", 1800))).toBeNull();
  });
});

const none: Figures = {
  movingDurationS: null, distanceM: null, elevationGainM: null, energyKcal: null, energyLow: null, energyHigh: null, energySource: null,
  avgHr: null, maxHr: null, avgPowerW: null, avgCadence: null,
};
const estimated = { energyKcal: 500, energyLow: 400, energyHigh: 600, energySource: "table:met:run-10kmh" };

describe("the richer recording", () => {
  it("counts the figures it states, a measured energy but not an estimate, and its track", () => {
    expect(richness({ ...none, distanceM: 5000, avgHr: 150 }, true)).toBe(3);
    expect(richness({ ...none, ...estimated }, false)).toBe(0);
    expect(richness({ ...none, energyKcal: 480 }, false)).toBe(1);
  });

  it("replaces the figures it states, keeps those it leaves out, and never puts an estimate over a measured energy", () => {
    const logged = { ...none, distanceM: 5000, elevationGainM: 40, energyKcal: 480 };
    expect(richerFigures(logged, { ...none, distanceM: 5012, avgPowerW: 250, ...estimated })).toEqual({
      ...none, distanceM: 5012, elevationGainM: 40, avgPowerW: 250, energyKcal: 480,
    });
    expect(richerFigures({ ...none, ...estimated }, { ...none, energyKcal: 470 })).toMatchObject({ energyKcal: 470, energySource: null, energyLow: null });
  });
});
