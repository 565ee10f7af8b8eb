import { describe, expect, it } from "vitest";
import type { ActivityType } from "@fit/contracts";
import { activityTypeFromLabel } from "../../src/activity-type.ts";

/** What each vendor writes into a GPX `<type>` (or a TCX `Sport`), and the interface's type it is. */
const VOCABULARIES: Record<string, [label: string, type: ActivityType][]> = {
  Strava: [["1", "ride"], ["4", "hike"], ["9", "run"], ["10", "walk"], ["16", "swim"], ["23", "rowing"], ["Run", "run"], ["VirtualRide", "ride"], ["WeightTraining", "strength_training"]],
  TomTom: [["RUNNING", "run"], ["CYCLING", "ride"], ["SWIMMING", "swim"], ["TREADMILL", "run"], ["INDOOR_CYCLING", "ride"], ["GYM", "strength_training"], ["HIKING", "hike"]],
  Garmin: [["running", "run"], ["cycling", "ride"], ["road_biking", "ride"], ["mountain_biking", "ride"], ["lap_swimming", "swim"], ["open_water_swimming", "swim"], ["treadmill_running", "run"], ["trail_running", "run"], ["walking", "walk"], ["hiking", "hike"], ["strength_training", "strength_training"], ["indoor_rowing", "rowing"], ["elliptical", "elliptical"], ["yoga", "yoga"], ["hiit", "crossfit"], ["motorcycling", "other"]],
  Polar: [["ROAD_BIKING", "ride"], ["OPEN_WATER_SWIMMING", "swim"], ["CROSS-TRAINER", "elliptical"], ["TREADMILL_RUNNING", "run"], ["STRENGTH_TRAINING", "strength_training"]],
  Suunto: [["Running", "run"], ["Trekking", "hike"], ["OpenwaterSwimming", "swim"], ["MountainBiking", "ride"], ["IndoorRowing", "rowing"], ["Mountaineering", "hike"]],
  COROS: [["Run", "run"], ["Bike", "ride"], ["Pool Swim", "swim"], ["Open Water", "swim"], ["Trail Run", "run"], ["Indoor Rower", "rowing"], ["Hike", "hike"]],
};

describe.each(Object.entries(VOCABULARIES))("%s's activity types", (_vendor, labels) => {
  it.each(labels)("%s is %s", (label, type) => {
    expect(activityTypeFromLabel(label)).toBe(type);
  });
});

describe("a label no vocabulary names", () => {
  it.each([["99"], ["0"], ["Kitesurf"], [""], [null]])("%s is other", (label) => {
    expect(activityTypeFromLabel(label)).toBe("other");
  });

  it("reads a Strava code with leading zeros or blank space around it", () => {
    expect(activityTypeFromLabel(" 09 ")).toBe("run");
  });
});
