import { describe, expect, it } from "vitest";
import { estimateWorkoutEnergy, knownDurationS } from "../../src/domain/workout-energy.ts";
import { parseWorkout, type ParsedWorkout } from "../../src/domain/workout-parser.ts";

type Input = Parameters<typeof estimateWorkoutEnergy>[0];

const workout = (fields: Partial<Input> & Pick<Input, "activityType">): Input => ({
  durationS: null, distanceM: null, exercises: [], avgHr: null, ...fields,
});

const lift = (exercise: string, sets: number | null): ParsedWorkout["exercises"][number] => ({
  exercise, sets, reps: 5, weightLb: null, durationS: null, distanceM: null, notes: null,
});

describe("estimateWorkoutEnergy", () => {
  it("uses the speed band's MET: 30 min at 10 km/h, 70 kg is 9.8 x 70 x 0.5", () => {
    const estimate = estimateWorkoutEnergy(workout({ activityType: "run", durationS: 1800, distanceM: 5000 }), 70);
    expect(estimate).toMatchObject({ kcal: 343, source: "table:met:run-10kmh" });
  });

  it("takes the range from the neighbouring bands (8.3 and 11.0 MET around 9.8)", () => {
    // 80 kg for half an hour: 40 kg·h.
    expect(estimateWorkoutEnergy(workout({ activityType: "run", durationS: 1800, distanceM: 5000 }), 80)).toEqual({
      kcal: 392, low: 332, high: 440, source: "table:met:run-10kmh",
    });
  });

  it("estimates a parsed workout end to end", () => {
    expect(estimateWorkoutEnergy(parseWorkout("ran 5k in 30 min"), 70)).toMatchObject({ kcal: 343, source: "table:met:run-10kmh" });
  });

  it.each([
    ["ride", 3600, 30000, 75, 900, "table:met:ride-26-32kmh"], // 12.0 MET
    ["walk", 3600, 5000, 60, 210, "table:met:walk-5kmh"], // 3.5 MET
    ["swim", 1800, 1500, 60, 249, "table:met:swim-2.7kmh"], // 8.3 MET
    ["run", 3600, 25000, 50, 1150, "table:met:run-23kmh"], // 23.0 MET, the fastest band
  ] as const)("%s for %i s over %i m at %i kg: %i kcal from %s", (activityType, durationS, distanceM, kg, kcal, source) => {
    expect(estimateWorkoutEnergy(workout({ activityType, durationS, distanceM }), kg)).toMatchObject({ kcal, source });
  });

  it("falls back to the activity's MET with ±20 % when the speed is unknown", () => {
    expect(estimateWorkoutEnergy(workout({ activityType: "walk", durationS: 3600 }), 60)).toEqual({
      kcal: 210, low: 168, high: 252, source: "table:met:walk",
    });
  });

  it("uses the Compendium's spread when it has one: yoga 2.5 MET, 2.0 to 4.0", () => {
    expect(estimateWorkoutEnergy(workout({ activityType: "yoga", durationS: 2400 }), 60)).toEqual({
      kcal: 100, low: 80, high: 160, source: "table:met:yoga",
    });
  });

  it("narrows the range to ±12 % when the average heart rate is stated", () => {
    const base = workout({ activityType: "run", durationS: 1800, distanceM: 5000 });
    const plain = estimateWorkoutEnergy(base, 80);
    const withHr = estimateWorkoutEnergy({ ...base, avgHr: 150 }, 80);
    expect(withHr).toEqual({ kcal: 392, low: 345, high: 439, source: "table:met:run-10kmh" });
    expect((withHr?.high ?? 0) - (withHr?.low ?? 0)).toBeLessThan((plain?.high ?? 0) - (plain?.low ?? 0));
  });

  it("never widens a band that is already narrower than ±12 %", () => {
    // Running 13 km/h: 11.8 MET between 11.0 and 12.8, i.e. -7 % / +8 %.
    const estimate = estimateWorkoutEnergy(workout({ activityType: "run", durationS: 3600, distanceM: 13000, avgHr: 160 }), 100);
    expect(estimate).toEqual({ kcal: 1180, low: 1100, high: 1280, source: "table:met:run-13kmh" });
  });

  it("gives strength training without a duration 150 s per set, 3 sets for an exercise without sets", () => {
    // (3 + 5 + 3) sets x 150 s = 1650 s; 5.0 MET (3.5 to 6.0) x 80 kg x 0.4583 h.
    const w = workout({ activityType: "strength_training", exercises: [lift("bench press", 3), lift("squat", 5), lift("pull-up", null)] });
    expect(estimateWorkoutEnergy(w, 80)).toEqual({ kcal: 183, low: 128, high: 220, source: "table:met:strength_training" });
  });

  it("knows a duration when it is stated or when strength sets imply one", () => {
    expect(knownDurationS(workout({ activityType: "strength_training", exercises: [lift("squat", 5), lift("plank", null)] }))).toBe(1200);
    expect(knownDurationS(workout({ activityType: "strength_training", durationS: 2700, exercises: [lift("squat", 5)] }))).toBe(2700);
    expect(knownDurationS(workout({ activityType: "run", exercises: [lift("squat", 5)] }))).toBeNull();
    expect(knownDurationS(workout({ activityType: "strength_training" }))).toBeNull();
  });

  it("prefers a stated duration over the sets for strength training", () => {
    const w = workout({ activityType: "strength_training", durationS: 3600, exercises: [lift("squat", 5)] });
    expect(estimateWorkoutEnergy(w, 80)?.kcal).toBe(400);
  });

  it("keeps parseWorkout's duration null for strength without a stated one", () => {
    const parsed = parseWorkout("bench 3x8 135lb, squat 3x5 225lb");
    expect(parsed.durationS).toBeNull();
    expect(estimateWorkoutEnergy(parsed, 80)?.kcal).toBe(Math.round(5.0 * 80 * ((6 * 150) / 3600)));
  });

  it.each([
    ["a run without a duration", workout({ activityType: "run", distanceM: 5000 }), 70],
    ["strength without a duration or exercises", workout({ activityType: "strength_training" }), 70],
    ["a yoga session of 0 s", workout({ activityType: "yoga", durationS: 0 }), 70],
    ["a body weight of 0", workout({ activityType: "yoga", durationS: 600 }), 0],
    ["a body weight that is not a number", workout({ activityType: "yoga", durationS: 600 }), Number.NaN],
  ])("is null for %s", (_, w, kg) => {
    expect(estimateWorkoutEnergy(w, kg)).toBeNull();
  });

  it("returns ordered integers for every activity, with or without speed and heart rate", () => {
    const activities = ["run", "ride", "swim", "walk", "hike", "strength_training", "yoga", "rowing", "elliptical", "crossfit", "other"] as const;
    for (const activityType of activities) {
      for (const distanceM of [null, 400, 5000, 42195]) {
        for (const avgHr of [null, 145]) {
          const estimate = estimateWorkoutEnergy(workout({ activityType, durationS: 2345, distanceM, avgHr }), 67.3);
          expect(estimate).not.toBeNull();
          const { kcal, low, high } = estimate ?? { kcal: NaN, low: NaN, high: NaN };
          expect([kcal, low, high].every(Number.isInteger)).toBe(true);
          expect(low).toBeLessThanOrEqual(kcal);
          expect(kcal).toBeLessThanOrEqual(high);
        }
      }
    }
  });

  it("is deterministic", () => {
    const w = workout({ activityType: "ride", durationS: 5400, distanceM: 40000, avgHr: 140 });
    expect(estimateWorkoutEnergy(w, 72.5)).toEqual(estimateWorkoutEnergy(w, 72.5));
  });
});
