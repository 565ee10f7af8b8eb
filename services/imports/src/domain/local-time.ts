// Times as export files write them: ISO with or without an offset, year-first or year-last dates, 12- or 24-hour
// clocks. A time without an offset is read in the import's zone (docs/decisions/0076-imports-as-background-jobs.md).

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (timeZone: string) => {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
};

/** How far the zone's wall clock is ahead of UTC at the instant `ms`. */
const offsetAt = (ms: number, timeZone: string) => {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
};

/** The instant a wall-clock time (as if UTC) names in the zone; in a gap of a clock change, the time after it. */
const zonedToUtc = (wall: number, timeZone: string) => {
  const first = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(first, timeZone);
};

interface Wall {
  year: number;
  month: number;
  day: number;
  clock: { hour: number; minute: number; second: number; ms: number } | null;
  /** Minutes east of UTC the text stated, or null when it stated none. */
  offsetMin: number | null;
}

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]+(.+?))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;
const YEAR_LAST = /^(\d{1,2})([-/.])(\d{1,2})[-/.](\d{4})(?:,?\s+(.+))?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3})\d*)?)?\s*([ap]\.?m\.?)?$/i;

const clockOf = (text: string): Wall["clock"] | undefined => {
  const match = CLOCK.exec(text.trim());
  if (!match) return undefined;
  let hour = Number(match[1]);
  const meridiem = match[5]?.toLowerCase().replaceAll(".", "");
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  const clock = { hour, minute: Number(match[2]), second: Number(match[3] ?? 0), ms: Number((match[4] ?? "0").padEnd(3, "0")) };
  return clock.hour > 23 || clock.minute > 59 || clock.second > 59 ? undefined : clock;
};

const offsetOf = (text: string | undefined): number | null => {
  if (!text) return null;
  if (/^(z|utc|gmt)$/i.test(text)) return 0;
  const sign = text.startsWith("-") ? -1 : 1;
  const digits = text.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
};

const wallOf = (date: string, clockText: string | null): Wall | undefined => {
  const iso = ISO.exec(date);
  let wall: Wall | undefined;
  let timeText: string | undefined;
  if (iso) {
    wall = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]), clock: null, offsetMin: offsetOf(iso[5]) };
    timeText = iso[4];
  } else {
    const last = YEAR_LAST.exec(date);
    if (!last) return undefined;
    const [first, second] = [Number(last[1]), Number(last[3])];
    // Dots are the day-first convention (15.01.2024); slashes and dashes month-first as US apps write them,
    // unless the first number cannot be a month.
    const dayFirst = last[2] === "." || first > 12;
    wall = { year: Number(last[4]), month: dayFirst ? second : first, day: dayFirst ? first : second, clock: null, offsetMin: null };
    timeText = last[5];
  }
  const clockSource = timeText ?? clockText;
  if (clockSource) {
    const clock = clockOf(clockSource);
    if (!clock) return undefined;
    wall.clock = clock;
  }
  return wall;
};

/**
 * The instant a file's date (and separate time column, if any) names, or undefined when it reads as no date.
 * A stated offset wins; else the time is read in `timeZone`; a date without a time is placed at local noon.
 */
export const instantOf = (date: string, clock: string | null, timeZone: string): number | undefined => {
  const wall = wallOf(date.trim(), clock?.trim() || null);
  if (!wall) return undefined;
  const { year, month, day } = wall;
  const { hour, minute, second, ms } = wall.clock ?? { hour: 12, minute: 0, second: 0, ms: 0 };
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return wall.offsetMin === null ? zonedToUtc(asUtc, timeZone) : asUtc - wall.offsetMin * 60_000;
};
