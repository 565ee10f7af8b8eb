import { LRUCache } from "lru-cache";
import { dayNumber, type DaySum } from "../domain/weight-summary.ts";
import type { AggregateRow, HeldDaysKey } from "./overview-queries.ts";

/** What a replica holds at most, over all accounts: 90 days of ~1 100 accounts, a few megabytes. */
const MAX_HELD_DAYS = 100_000;

export interface HeldDays extends HeldDaysKey {
  days: readonly DaySum[];
}

/** The statement's answer about the days (`weightAggregatesQuery`), its days read into day sums. */
type DaysAnswer = Pick<AggregateRow, "reused" | "version" | "through" | "first_day"> & { days: DaySum[] };

/**
 * The kept days (up to the roll-up's `through`) of the accounts a replica read last, each under the roll-up's
 * version it read them at. The statement is given them and skips reading them again while the version and the
 * range are still the same: a change to a kept day gives the range a new version in the same transaction, so
 * the replica that holds them and any other see it at their next read
 * (docs/decisions/0053-kept-days-held-by-version.md).
 */
export const createHeldDays = () => {
  const entries = new LRUCache<string, HeldDays>({ maxSize: MAX_HELD_DAYS, sizeCalculation: (entry) => entry.days.length + 1 });
  return {
    get: (accountId: string): HeldDays | undefined => entries.get(accountId),

    /**
     * The days of the answer to a read given `held`, up to `dayEnd`, with the held days it skipped put back;
     * holds the kept days of an answer that read them all.
     */
    complete(accountId: string, held: HeldDays | undefined, answer: DaysAnswer, dayEnd: number): DaySum[] {
      const lastDay = dayNumber(dayEnd) - 1;
      if (answer.reused) {
        const kept = held!.days.filter((day) => dayNumber(day.ts) >= answer.first_day && dayNumber(day.ts) <= lastDay);
        return [...kept, ...answer.days];
      }
      const { version, through } = answer;
      if (version === null || through === null) entries.delete(accountId);
      else if (lastDay >= through) {
        entries.set(accountId, { version, through, from: answer.first_day, days: answer.days.filter((day) => dayNumber(day.ts) <= through) });
      }
      return answer.days;
    },
  };
};
