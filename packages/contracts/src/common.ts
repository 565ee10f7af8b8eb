import { z } from "zod";

/**
 * A missing or mistyped field in the contracts' own voice ("date is required", "date must be a string") rather
 * than zod's ("Invalid input: expected string, received undefined"). A schema's own message still wins.
 */
z.config({
  customError: (issue) => {
    if (issue.code !== "invalid_type") return undefined;
    if (issue.input === undefined) return "is required";
    return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
  },
});

export const Ack = z
  .object({ ok: z.literal(true) })
  .meta({ id: "Ack", description: "Acknowledgement of a write. Always `{\"ok\": true}`." });

/** A write that creates something also names it, so the caller can edit or delete it without a list call. */
export const CreatedAck = z
  .object({ ok: z.literal(true), id: z.uuid() })
  .meta({ id: "CreatedAck", description: "Acknowledgement of a create, with the new resource's id." });

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * A real calendar day of the years 0001 to 9999 (proleptic Gregorian, as Date counts): `2026-02-30` and `today`
 * are refused, not rolled over. Year 0 is refused because the week of 0001-01-01 starts on that Monday, so no day
 * a service derives from a valid one leaves the four-digit years. Arithmetic rather than a Date: every request
 * and reply with a day in it passes here, the dashboard's several times.
 */
export const isCalendarDate = (value: string): boolean => {
  const match = DAY.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= (m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!);
};

export const CalendarDate = z
  .string()
  .refine(isCalendarDate, { error: "must be a calendar day in the form YYYY-MM-DD" })
  .meta({ description: "Calendar day, YYYY-MM-DD (UTC unless stated).", examples: ["2026-11-22"] });

/** The UTC calendar day of a Unix-millisecond instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Unix milliseconds; bounded to years 1970..2100 so a seconds value or garbage is caught. */
export const TimestampMs = z
  .number({ error: "must be a number of Unix milliseconds" })
  .int({ error: "must be an integer of Unix milliseconds" })
  .min(0)
  .max(4_102_444_800_000)
  .meta({ description: "Unix time in milliseconds." });

export const Uuid = z.uuid({ error: "must be a UUID" });

export const IdParams = z.object({ id: Uuid.meta({ description: "Resource identifier (UUID)." }) });

/** Query strings arrive as text; coerce and keep the same bounds. */
export const queryMs = TimestampMs.or(z.string().regex(/^\d+$/).transform(Number).pipe(TimestampMs));

export const PageLimit = z.coerce
  .number({ error: "limit must be a number" })
  .int({ error: "limit must be an integer" })
  .min(1, { error: "limit must be between 1 and 200" })
  .max(200, { error: "limit must be between 1 and 200" })
  .default(50)
  .meta({ description: "Page size, 1 to 200 (default 50)." });

export const Cursor = z.string().max(200).meta({ description: "Opaque cursor from the previous page's nextCursor." });

/** A list query: newest first, bounded by `from`/`to` on the resource's time, in keyset pages. */
export const RangeQuery = z.object({
  from: queryMs.optional().meta({ description: "Inclusive lower bound, Unix ms." }),
  to: queryMs.optional().meta({ description: "Exclusive upper bound, Unix ms." }),
  limit: PageLimit,
  cursor: Cursor.optional(),
});

export const page = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      items: z.array(item),
      nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
    })
    .meta({ id });

/**
 * Notes and other free text: trimmed, truncated (not refused) at `max`, empty stored as null (docs/decisions/0010-free-text-truncated-not-refused.md).
 */
export const truncatedText = (max: number) =>
  z
    .string({ error: `must be a string of at most ${max} characters` })
    .transform((s) => s.trim().slice(0, max))
    .transform((s) => (s === "" ? null : s));

export const accountId = z.uuid();

export const ack = { ok: true } as const;
export const created = (id: string) => ({ ok: true, id }) as const;
