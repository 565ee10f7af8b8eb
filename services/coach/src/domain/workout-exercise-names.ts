// Strength exercises the rule-based workout parser recognises by name, with the canonical name each maps to.
// `pattern` is a regex fragment without capturing groups; "bodyweight" exercises read a bare number as reps,
// "hold" exercises (planks) read a bare duration as seconds per set. Order matters where two patterns can
// start at the same word: the regex takes the first that matches, so "clean and jerk" precedes "clean".

type ExerciseKind = "load" | "bodyweight" | "hold";

export interface ExerciseName {
  name: string;
  pattern: string;
  kind: ExerciseKind;
}

const HYPHEN = "[- ]?";

export const EXERCISE_NAMES: readonly ExerciseName[] = [
  { name: "bench press", pattern: String.raw`(?:flat )?bench(?:[- ]press(?:es)?)?`, kind: "load" },
  { name: "incline bench press", pattern: String.raw`incline (?:bench(?: press(?:es)?)?|press(?:es)?)`, kind: "load" },
  { name: "decline bench press", pattern: String.raw`decline (?:bench(?: press(?:es)?)?|press(?:es)?)`, kind: "load" },
  { name: "dumbbell bench press", pattern: String.raw`(?:dumbbell|db) bench(?: press(?:es)?)?`, kind: "load" },
  { name: "close-grip bench press", pattern: String.raw`close${HYPHEN}grip bench(?: press(?:es)?)?`, kind: "load" },
  { name: "squat", pattern: String.raw`(?:back |barbell )?squats?`, kind: "load" },
  { name: "front squat", pattern: "front squats?", kind: "load" },
  { name: "goblet squat", pattern: "goblet squats?", kind: "load" },
  { name: "overhead squat", pattern: "overhead squats?", kind: "load" },
  { name: "split squat", pattern: "(?:bulgarian )?split squats?", kind: "load" },
  { name: "air squat", pattern: "(?:air|bodyweight) squats?", kind: "bodyweight" },
  { name: "deadlift", pattern: "(?:conventional )?deadlifts?", kind: "load" },
  { name: "sumo deadlift", pattern: "sumo deadlifts?", kind: "load" },
  { name: "romanian deadlift", pattern: "romanian deadlifts?|rdls?", kind: "load" },
  { name: "stiff-leg deadlift", pattern: String.raw`stiff${HYPHEN}leg(?:ged)? deadlifts?`, kind: "load" },
  { name: "overhead press", pattern: "overhead press(?:es)?|ohp|military press(?:es)?", kind: "load" },
  { name: "shoulder press", pattern: "(?:dumbbell |db )?shoulder press(?:es)?", kind: "load" },
  { name: "push press", pattern: "push press(?:es)?", kind: "load" },
  { name: "leg press", pattern: "leg press(?:es)?", kind: "load" },
  { name: "barbell row", pattern: String.raw`(?:barbell|bent${HYPHEN}over|pendlay) rows?`, kind: "load" },
  { name: "dumbbell row", pattern: "(?:dumbbell|db|one arm|single arm) rows?", kind: "load" },
  { name: "cable row", pattern: "(?:cable|seated)(?: cable)? rows?", kind: "load" },
  { name: "t-bar row", pattern: String.raw`t${HYPHEN}bar rows?`, kind: "load" },
  { name: "upright row", pattern: "upright rows?", kind: "load" },
  { name: "inverted row", pattern: "inverted rows?", kind: "bodyweight" },
  { name: "lat pulldown", pattern: String.raw`(?:lat )?pull${HYPHEN}downs?`, kind: "load" },
  { name: "pull-up", pattern: String.raw`pull${HYPHEN}ups?`, kind: "bodyweight" },
  { name: "chin-up", pattern: String.raw`chin${HYPHEN}ups?`, kind: "bodyweight" },
  { name: "push-up", pattern: String.raw`push${HYPHEN}ups?|press${HYPHEN}ups?`, kind: "bodyweight" },
  { name: "sit-up", pattern: String.raw`sit${HYPHEN}ups?`, kind: "bodyweight" },
  { name: "muscle-up", pattern: String.raw`muscle${HYPHEN}ups?`, kind: "bodyweight" },
  { name: "step-up", pattern: String.raw`step${HYPHEN}ups?`, kind: "load" },
  { name: "dip", pattern: "dips?", kind: "bodyweight" },
  { name: "crunch", pattern: "crunch(?:es)?", kind: "bodyweight" },
  { name: "burpee", pattern: "burpees?", kind: "bodyweight" },
  { name: "lunge", pattern: "(?:walking |reverse )?lunges?", kind: "load" },
  { name: "leg raise", pattern: "(?:hanging )?leg raises?", kind: "bodyweight" },
  { name: "mountain climber", pattern: "mountain climbers?", kind: "bodyweight" },
  { name: "jumping jack", pattern: "jumping jacks?", kind: "bodyweight" },
  { name: "box jump", pattern: "box jumps?", kind: "bodyweight" },
  { name: "russian twist", pattern: "russian twists?", kind: "bodyweight" },
  { name: "bicep curl", pattern: "(?:(?:bicep|biceps|barbell|dumbbell|db) )?curls?", kind: "load" },
  { name: "hammer curl", pattern: "hammer curls?", kind: "load" },
  { name: "preacher curl", pattern: "preacher curls?", kind: "load" },
  { name: "leg curl", pattern: "(?:leg|hamstring) curls?", kind: "load" },
  { name: "leg extension", pattern: "leg extensions?", kind: "load" },
  { name: "tricep extension", pattern: "(?:overhead )?triceps? extensions?|skull ?crushers?", kind: "load" },
  { name: "tricep pushdown", pattern: String.raw`triceps? push${HYPHEN}downs?`, kind: "load" },
  { name: "lateral raise", pattern: "(?:lateral|side) raises?", kind: "load" },
  { name: "calf raise", pattern: "calf raises?", kind: "load" },
  { name: "face pull", pattern: "face pulls?", kind: "load" },
  { name: "chest fly", pattern: "(?:chest |dumbbell |cable |pec )?fl(?:y|ies|yes)", kind: "load" },
  { name: "shrug", pattern: "shrugs?", kind: "load" },
  { name: "hip thrust", pattern: "hip thrusts?", kind: "load" },
  { name: "glute bridge", pattern: "glute bridges?", kind: "bodyweight" },
  { name: "kettlebell swing", pattern: "(?:kettlebell|kb) swings?", kind: "load" },
  { name: "thruster", pattern: "thrusters?", kind: "load" },
  { name: "wall ball", pattern: String.raw`wall${HYPHEN}balls?`, kind: "load" },
  { name: "clean and jerk", pattern: "clean (?:and|&) jerks?", kind: "load" },
  { name: "clean", pattern: "(?:power |hang )?cleans?", kind: "load" },
  { name: "snatch", pattern: "(?:power )?snatch(?:es)?", kind: "load" },
  { name: "farmer's walk", pattern: "farmer'?s? (?:walks?|carry|carries)", kind: "load" },
  { name: "plank", pattern: "planks?", kind: "hold" },
  { name: "side plank", pattern: "side planks?", kind: "hold" },
  { name: "wall sit", pattern: String.raw`wall${HYPHEN}sits?`, kind: "hold" },
  { name: "dead hang", pattern: "dead hangs?", kind: "hold" },
  { name: "hollow hold", pattern: "hollow (?:body )?holds?", kind: "hold" },
];
