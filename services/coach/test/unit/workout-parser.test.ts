import { describe, expect, it } from "vitest";
import { completeWorkout } from "../../src/domain/workout-completion.ts";
import { type ParsedWorkout, parseWorkout, statedWhen } from "../../src/domain/workout-parser.ts";
import { whyImpossible } from "../../src/domain/workout-plausibility.ts";

type Expected = Partial<Omit<ParsedWorkout, "exercises">> & { exercises?: Partial<ParsedWorkout["exercises"][number]>[] };

const set = (exercise: string, sets: number | null, reps: number | null, weightLb: number | null = null, durationS: number | null = null) => ({
  exercise, sets, reps, weightLb, durationS, distanceM: null, notes: null,
});

// Parsed with the user's today a Wednesday (3) so weekday names have somewhere to count back from.
const CASES: readonly (readonly [string, Expected])[] = [
  // Activities
  ["ran 5k in 27 min this morning, avg hr 152", { activityType: "run", summary: "5 km run", distanceM: 5000, durationS: 1620, avgHr: 152, exercises: [] }],
  ["went for a jog", { activityType: "run", summary: "Run" }],
  ["rode 40 km on the bike", { activityType: "ride", distanceM: 40000, summary: "40 km ride" }],
  ["peloton class", { activityType: "ride" }],
  ["swam 1500 m", { activityType: "swim", distanceM: 1500 }],
  ["walked 10,000 steps", { activityType: "walk", distanceM: null }],
  ["hiked 12 km", { activityType: "hike", distanceM: 12000, summary: "12 km hike" }],
  ["lifting at the gym", { activityType: "strength_training", summary: "Strength training", exercises: [] }],
  ["45 min yoga", { activityType: "yoga", durationS: 2700, summary: "45 min yoga" }],
  ["pilates for 50 minutes", { activityType: "yoga", durationS: 3000 }],
  ["rowed 2000m in 7:45", { activityType: "rowing", distanceM: 2000, durationS: 465, summary: "2000 m row" }],
  ["30 min on the cross trainer", { activityType: "elliptical", durationS: 1800 }],
  ["crossfit wod, amrap 20 min", { activityType: "crossfit", durationS: 1200, summary: "20 min CrossFit" }],
  ["played tennis for an hour", { activityType: "other", durationS: 3600, summary: "1 h workout" }],
  // Weak keywords lose to strong ones; a cardio warm-up does not make the workout cardio.
  ["5k row", { activityType: "rowing", distanceM: 5000 }],
  ["went to the gym, 30 min elliptical", { activityType: "elliptical" }],
  ["run 2 km then 3x10 squats", { activityType: "run", distanceM: 2000, exercises: [set("squat", 3, 10)] }],
  ["3x10 squats then a 2 km run", { activityType: "strength_training", exercises: [set("squat", 3, 10)] }],
  ["10 min warm-up jog, then deadlift 5x5 100 kg", { activityType: "strength_training", durationS: null, exercises: [set("deadlift", 5, 5, 220.5)] }],
  // Durations
  ["45 mins ride", { durationS: 2700 }],
  ["1 hour walk", { durationS: 3600, summary: "1 h walk" }],
  ["1h ride", { durationS: 3600 }],
  ["1h30 ride", { durationS: 5400, summary: "1 h 30 min ride" }],
  ["1 h 30 min ride", { durationS: 5400 }],
  ["1.5 hours hike", { durationS: 5400 }],
  ["90 minutes spin", { durationS: 5400 }],
  ["an hour of yoga", { durationS: 3600 }],
  ["half an hour on the elliptical", { durationS: 1800 }],
  ["ran 1:02:30", { durationS: 3750 }],
  ["5k in 27:45", { durationS: 1665, distanceM: 5000 }],
  ["ran 200 m in 30 sec", { durationS: 30, distanceM: 200 }],
  ["ran 400 m in 75 s", { durationS: 75 }],
  ["squats 3x10, 90s rest between sets", { durationS: null }],
  // Distances
  ["ran 10K", { distanceM: 10000, summary: "10 km run" }],
  ["ran 3 mi", { distanceM: 4828, summary: "3 mi run" }],
  ["walked 3 miles", { distanceM: 4828 }],
  ["400 m run", { distanceM: 400, summary: "400 m run" }],
  ["ran 1500m", { distanceM: 1500 }],
  ["half marathon in 1:52:10", { activityType: "run", distanceM: 21097.5, durationS: 6730, summary: "Half marathon run" }],
  ["ran the marathon in 3:45:00", { distanceM: 42195, durationS: 13500 }],
  ["swam 2000 yards", { distanceM: 1828.8 }],
  ["swam 1000 yd", { distanceM: 914.4 }],
  ["swam 20 laps", { activityType: "swim", distanceM: 500, summary: "500 m swim" }],
  ["swam 20 laps in a 50m pool", { distanceM: 1000 }],
  ["ran 5,2 km", { distanceM: 5200 }],
  ["rode 42.5 km", { distanceM: 42500 }],
  // Pace and speed fill in the missing one of duration and distance.
  ["ran 10 km at 5:30/km", { durationS: 3300 }],
  ["ran 10 km at 5:30 per km", { durationS: 3300 }],
  ["ran 5 miles at 8 min/mi", { durationS: 2400, distanceM: 8046.7 }],
  ["ran 3 miles, 8:00 min/mile", { durationS: 1440 }],
  ["ran 45 min at 6:00/km", { distanceM: 7500, summary: "7.5 km run" }],
  ["rode 2 hours at 25 km/h", { distanceM: 50000 }],
  ["rode for 30 min at 15 mph", { distanceM: 12070.1 }],
  ["ran 10 km in 50 min at 4:00/km", { durationS: 3000 }],
  // Heart rate, power, cadence, elevation, stated calories
  ["average heart rate 150 bpm on my 30 min run", { avgHr: 150, maxHr: null, durationS: 1800 }],
  ["run 30 min, hr 140", { avgHr: 140 }],
  ["ride 1h, max hr 182", { maxHr: 182, avgHr: null }],
  ["intervals, peaked at 180 bpm, avg hr 150", { maxHr: 180, avgHr: 150 }],
  ["rode 1 hr 20 min", { durationS: 4800, avgHr: null }],
  ["ride 1h avg 210 w", { avgPowerW: 210 }],
  ["ride, 250 watts average", { avgPowerW: 250 }],
  ["ride, max 600 w", { avgPowerW: null }],
  ["run 30 min, cadence 172", { avgCadence: 172 }],
  ["ride at 90 rpm", { avgCadence: 90 }],
  ["easy run 172 spm", { avgCadence: 172 }],
  ["hiked 10 km with 500 m elevation", { elevationGainM: 500, distanceM: 10000 }],
  ["climbed 300m on the bike", { elevationGainM: 300, distanceM: null }],
  ["ride with 1200 ft of climbing", { elevationGainM: 365.8 }],
  ["800 ft gain on the ride", { elevationGainM: 243.8 }],
  ["spin, burned 400 kcal", { energyKcal: 400 }],
  ["yoga, 400 calories", { energyKcal: 400 }],
  ["400 cal spin", { energyKcal: 400 }],
  // Strength: sets x reps x weight, kg converted to lb (x 2.20462, one decimal)
  ["bench 3x8 @ 135 lb", { exercises: [set("bench press", 3, 8, 135)], summary: "Strength: bench press" }],
  ["3 sets of 10 squats at 60kg", { exercises: [set("squat", 3, 10, 132.3)] }],
  ["deadlift 5x5 100 kg", { exercises: [set("deadlift", 5, 5, 220.5)] }],
  ["squats 3x10", { exercises: [set("squat", 3, 10)] }],
  ["20 push-ups", { activityType: "strength_training", exercises: [set("push-up", null, 20)] }],
  ["3 sets of 12 pull-ups", { exercises: [set("pull-up", 3, 12)] }],
  ["plank 3 x 60s", { exercises: [set("plank", 3, null, null, 60)], durationS: null }],
  ["5x5 bench press 225lbs", { exercises: [set("bench press", 5, 5, 225)] }],
  ["squat 225 for 5 reps", { exercises: [set("squat", null, 5, 225)] }],
  ["did squats and lunges", { exercises: [set("squat", null, null), set("lunge", null, null)] }],
  ["landmine rotations 3x12", { exercises: [set("landmine rotation", 3, 12)] }],
  ["farmer's walk 3 x 40 m", { activityType: "strength_training", distanceM: null, exercises: [{ exercise: "farmer's walk", sets: 3, distanceM: 40 }] }],
  [
    "bench 3x8 135lb, squat 3x5 225lb, 3 sets of 12 pull-ups",
    { summary: "Strength: bench press, squat, pull-up", exercises: [set("bench press", 3, 8, 135), set("squat", 3, 5, 225), set("pull-up", 3, 12)] },
  ],
  // Time of day and day offset
  ["ran this morning", { when: { dayOffset: 0, minuteOfDay: 420 } }],
  ["morning swim", { when: { dayOffset: 0, minuteOfDay: 420 } }],
  ["yoga at noon", { when: { dayOffset: 0, minuteOfDay: 720 } }],
  ["lunch run", { when: { dayOffset: 0, minuteOfDay: 720 } }],
  ["afternoon ride", { when: { dayOffset: 0, minuteOfDay: 900 } }],
  ["evening walk", { when: { dayOffset: 0, minuteOfDay: 1140 } }],
  ["rowing tonight", { when: { dayOffset: 0, minuteOfDay: 1140 } }],
  ["run at 6pm", { when: { dayOffset: 0, minuteOfDay: 1080 } }],
  ["swim at 6:30 am", { when: { dayOffset: 0, minuteOfDay: 390 } }],
  ["ride at 18:30", { when: { dayOffset: 0, minuteOfDay: 1110 } }],
  ["this evening at 7:15, 5k run", { when: { dayOffset: 0, minuteOfDay: 1155 }, durationS: null }],
  ["ran 10k yesterday", { when: { dayOffset: -1, minuteOfDay: null } }],
  ["yesterday morning at 6am, 5k", { when: { dayOffset: -1, minuteOfDay: 360 } }],
  ["yoga last night", { when: { dayOffset: -1, minuteOfDay: 1200 } }],
  ["swam 2 days ago", { when: { dayOffset: -2, minuteOfDay: null } }],
  ["hiked three days ago", { when: { dayOffset: -3, minuteOfDay: null } }],
  ["ran on monday", { when: { dayOffset: -2, minuteOfDay: null } }],
  ["ran on thursday", { when: { dayOffset: -6, minuteOfDay: null } }],
  ["yoga on wednesday", { when: { dayOffset: 0, minuteOfDay: null } }],
  ["yoga last wednesday", { when: { dayOffset: -7, minuteOfDay: null } }],
  ["ran 5k", { when: { dayOffset: 0, minuteOfDay: null } }],
];

describe("parseWorkout", () => {
  it.each(CASES)("%s", (text, expected) => {
    expect(parseWorkout(text, { weekday: 3 })).toMatchObject(expected);
  });

  it("reads a two-part time as h:mm when m:ss would be faster than anyone goes over the distance", () => {
    expect(parseWorkout("ran 10 miles in 1:30").durationS).toBe(5400);
    expect(parseWorkout("ran 8 km in 0:45").durationS).toBe(2700);
    expect(parseWorkout("swam 2 km in 0:50").durationS).toBe(3000);
    expect(parseWorkout("ran 5 km in 25:30").durationS).toBe(1530);
    expect(parseWorkout("ran 1:05:30").durationS).toBe(3930);
  });

  it("reads a two-part time without a distance as h:mm when m:ss is too short for a session of the activity", () => {
    expect(parseWorkout("ran 1:30").durationS).toBe(5400);
    expect(parseWorkout("rode 2:15 this morning").durationS).toBe(8100);
    expect(parseWorkout("ran 25:30").durationS).toBe(1530);
    expect(parseWorkout("ran 1:30 min").durationS).toBe(90);
    expect(parseWorkout("bench 3x8, 1:30 between sets").durationS).toBe(90);
  });

  it("refuses a speed no one reaches at the activity, as it refuses text without a duration", () => {
    for (const text of ["ran 5 km in 2 min", "walked 10 km in 20 min", "rode 100 km in 30 min", "swam 1000 m in 2 min", "ran 10 km at 1:00/km"]) {
      expect(completeWorkout(parseWorkout(text), 70), text).toMatchObject({ refusal: { message: expect.stringMatching(/^the workout cannot be right: /) } });
    }
    expect(whyImpossible(parseWorkout("rode 100 km in 30 min"))).toBe("200 km/h is faster than anyone rides");
    expect(whyImpossible(parseWorkout("ran 100 m in 11 s"))).toBeNull();
    expect(completeWorkout(parseWorkout("ran 100 m in 11 s"), 70)).toMatchObject({ workout: { durationS: 11, distanceM: 100 } });
    expect(completeWorkout(parseWorkout("ran 10 miles in 1:30"), 70)).toMatchObject({ workout: { durationS: 5400 } });
  });

  it("refuses a zero duration or distance, as it refuses text without a duration", () => {
    expect(parseWorkout("ran 0 km in 20 min")).toMatchObject({ distanceM: 0, durationS: 1200 });
    for (const text of ["ran 5 km in 0 min", "ran 0 km in 20 min", "swam 0 laps in 20 min", "ran 0:00", "ran 0 km at 5:00/km"]) {
      expect(completeWorkout(parseWorkout(text), 70), text).toMatchObject({ refusal: { message: expect.stringMatching(/^the workout cannot be right: /) } });
    }
  });

  it("reads weekday names against Sunday when no weekday is given", () => {
    expect(parseWorkout("ran on saturday").when).toEqual({ dayOffset: -1, minuteOfDay: null });
    expect(parseWorkout("ran on sunday").when).toEqual({ dayOffset: 0, minuteOfDay: null });
  });

  it("leaves every unstated metric null, never 0", () => {
    expect(parseWorkout("went for a jog")).toEqual({
      activityType: "run",
      summary: "Run",
      durationS: null,
      distanceM: null,
      elevationGainM: null,
      avgHr: null,
      maxHr: null,
      avgPowerW: null,
      avgCadence: null,
      energyKcal: null,
      exercises: [],
      when: { dayOffset: 0, minuteOfDay: null },
    });
  });

  it("is case-insensitive", () => {
    expect(parseWorkout("RAN 10K AT 5:00/KM, AVG HR 150")).toMatchObject({ activityType: "run", distanceM: 10000, durationS: 3000, avgHr: 150 });
  });

  it("keeps every summary non-empty and at most 80 characters", () => {
    const names = ["bench", "squat", "deadlift", "overhead press", "barbell row", "pull-ups", "dips", "lunges", "hip thrusts", "face pulls"];
    const long = names.map((name, i) => `${name} 3x${i + 5}`).join(", ");
    const summaries = [...CASES.map(([text]) => text), long, "", "   ", "?!"].map((text) => parseWorkout(text).summary);
    for (const summary of summaries) {
      expect(summary.length).toBeGreaterThan(0);
      expect(summary.length).toBeLessThanOrEqual(80);
    }
    expect(parseWorkout(long).summary).toMatch(/^Strength: bench press, squat, deadlift, overhead press, barbell row, .*…$/);
  });

  it("reads only the first 4000 characters", () => {
    expect(parseWorkout(`${"x".repeat(3995)} ran 5k`).distanceM).toBeNull();
    expect(parseWorkout(`${"x".repeat(3990)} ran 5k`).distanceM).toBe(5000);
  });

  it.each([
    ["digits", "1".repeat(5000)],
    ["sets", "3x".repeat(2500)],
    ["clock-like", "1:".repeat(2500)],
    ["spaces then a number", `${" ".repeat(3999)}1`],
    ["keywords", "hr ".repeat(1500)],
    ["exercise names", "bench, ".repeat(700)],
    ["mixed phrases", "5k 3x10 squats at 60kg, avg hr 150, 27:45, 5:30/km, ".repeat(80)],
  // A regex that backtracks catastrophically takes seconds to minutes on these; the bound leaves room for a busy machine.
  ])("parses a 4000-character adversarial input (%s) in under a second", (_, text) => {
    parseWorkout("warm the regexes up");
    const start = performance.now();
    parseWorkout(text);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe("the time a photographed workout's words give", () => {
  it("is the described workout's when, and null when the words name no earlier day and no time of day", () => {
    expect(statedWhen("yesterday 7am", 3)).toEqual({ dayOffset: -1, minuteOfDay: 420 });
    expect(statedWhen("spin class this evening", 3)).toEqual({ dayOffset: 0, minuteOfDay: 1140 });
    expect(statedWhen("on monday", 3)).toEqual({ dayOffset: -2, minuteOfDay: null });
    expect(statedWhen("legs heavy, 5 km at 5:30/km", 3)).toBeNull();
  });
});
