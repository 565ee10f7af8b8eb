// When the workout happened, relative to the user's today: day offset and local minute of the day.
import type { MaskedText } from "./workout-text.ts";

export interface WorkoutWhen {
  dayOffset: number;
  minuteOfDay: number | null;
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const COUNTS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const DAYPARTS: readonly (readonly [RegExp, number])[] = [
  [/\blast night\b/, 1200],
  [/\b(?:this )?morning\b/, 420],
  [/\b(?:noon|midday|lunch(?:time)?)\b/, 720],
  [/\bafternoon\b/, 900],
  [/\b(?:evening|tonight)\b/, 1140],
  [/\bmidnight\b/, 0],
];
// After these a bare "at 6:30" is in the afternoon or evening.
const LATE_DAYPARTS = new Set([1200, 900, 1140]);

interface Clock {
  minute: number;
  /** false when no am/pm said which half of the day: "at 6:30" in the evening is 18:30. */
  explicit: boolean;
}

const takeClock = (t: MaskedText): Clock | null => {
  let clock: Clock | null = null;
  t.consume(/(?<![\d:.])(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*([ap])\.?m\b\.?/g, (m) => {
    const hour = (Number(m[1]) % 12) + (m[3] === "p" ? 12 : 0);
    clock ??= { minute: hour * 60 + Number(m[2] ?? 0), explicit: true };
    return true;
  });
  t.consume(/(?:@|\b(?:at|around|by|from|starting)\b)\s*([01]?\d|2[0-3]):([0-5]\d)(?![\d:])/g, (m) => {
    const hour = Number(m[1]);
    clock ??= { minute: hour * 60 + Number(m[2]), explicit: hour === 0 || hour >= 12 };
    return true;
  });
  t.consume(/(?<![\d:])(1[0-2]|0?[1-9])\s*o'?clock\b/g, (m) => {
    clock ??= { minute: Number(m[1]) * 60, explicit: false };
    return true;
  });
  return clock;
};

/**
 * A weekday name is the most recent such day: "on Monday" said on a Monday is today (offset 0), while
 * "last Monday" said on a Monday is a week ago.
 */
const weekdayOffset = (text: string, today: number): number | null => {
  const m = /\b(last |past )?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/.exec(text);
  if (!m) return null;
  const back = (today - WEEKDAYS.indexOf(m[2] ?? "") + 7) % 7;
  if (back === 0) return m[1] ? -7 : 0;
  return -back;
};

const dayOffsetOf = (text: string, today: number): number => {
  if (/\bday before yesterday\b/.test(text)) return -2;
  const ago = /\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten) days? ago\b/.exec(text)?.[1];
  if (ago !== undefined) return -(COUNTS.includes(ago) ? COUNTS.indexOf(ago) : Number(ago));
  if (/\b(?:yesterday|last night)\b/.test(text)) return -1;
  return weekdayOffset(text, today) ?? 0;
};

/** `today` is the user's local weekday, 0 = Sunday; anything else than 0..6 is read modulo 7. */
export const takeWhen = (t: MaskedText, today: number): WorkoutWhen => {
  const weekday = Number.isFinite(today) ? ((Math.trunc(today) % 7) + 7) % 7 : 0;
  const text = t.text;
  const daypart = DAYPARTS.find(([pattern]) => pattern.test(text))?.[1] ?? null;
  const clock = takeClock(t);
  let minuteOfDay = clock?.minute ?? daypart;
  if (clock && !clock.explicit && clock.minute < 720 && daypart !== null && LATE_DAYPARTS.has(daypart)) minuteOfDay = clock.minute + 720;
  return { dayOffset: dayOffsetOf(text, weekday), minuteOfDay };
};
