import { describe, expect, it } from "vitest";
import { checkScreen, readScreen, startOfPhotographed } from "../../src/domain/photo-workout.ts";

const lines = (text: string, confidence = 92) => text.split("\n").map((line) => ({ text: line, confidence }));

describe("a console screen's text", () => {
  it("reads each metric from the line that names it, undoing OCR's letters for digits", () => {
    const { workout, lowConfidence } = readScreen(lines("TREADMILL\nTIME 3O:l2\nDISTANCE 5.O2 kn\nCALORIES 32O\nAVG HR l45 bpm"));
    expect(workout).toEqual({ activityType: "run", durationS: 1812, distanceM: 5020, energyKcal: 320, avgHr: 145 });
    expect(lowConfidence).toEqual([]);
  });

  it("flags a value from an unsure line and leaves out one that does not fit the others", () => {
    const read = readScreen([...lines("BIKE\nTIME 40:00\nCALORIES 4"), { text: "DISTANCE 16.4 km", confidence: 50 }]);
    expect(read.workout).toMatchObject({ activityType: "ride", durationS: 2400, distanceM: 16_400, energyKcal: null });
    expect(read.lowConfidence.sort()).toEqual(["distanceM", "energyKcal"]);
    // 60 km in 20 minutes is no run: a misread, never logged.
    expect(readScreen(lines("RUN\nTIME 20:00\nDISTANCE 60.0 km")).workout.distanceM).toBeNull();
  });

  it("has no duration to give when the screen shows none", () => {
    expect(readScreen(lines("Nutrition Facts\nCalories 120")).workout.durationS).toBeNull();
  });

  it("starts the workout its duration before the photo was taken, at EXIF's offset, else the client's", () => {
    const localMs = Date.parse("2026-11-20T18:30:00Z");
    expect(startOfPhotographed({ localMs, offsetMin: 120 }, { tz: 0, durationS: 1800 })).toBe(Date.parse("2026-11-20T16:00:00Z"));
    expect(startOfPhotographed({ localMs, offsetMin: null }, { tz: 300, durationS: 1800 })).toBe(Date.parse("2026-11-20T23:00:00Z"));
    expect(startOfPhotographed(null, { tz: 0, durationS: 1800 })).toBeNull();
  });
});

describe("a screen the model read", () => {
  it("keeps the fields the model was unsure of flagged, and leaves out one that does not fit the others as OCR's would be", () => {
    const read = checkScreen({ activityType: "run", durationS: 1800, distanceM: 5000, energyKcal: 300, avgHr: 400 }, ["energyKcal", "not-a-field"]);
    expect(read.workout).toEqual({ activityType: "run", durationS: 1800, distanceM: 5000, energyKcal: 300, avgHr: null });
    expect(read.lowConfidence.sort()).toEqual(["avgHr", "energyKcal"]);
  });
});
