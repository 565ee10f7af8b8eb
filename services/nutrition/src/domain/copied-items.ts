import type { Meal } from "@fit/contracts";

/** At most this many items are copied at once: more than any real day holds, and a bound on one request's write. */
export const MAX_COPIED_ITEMS = 100;

interface Target {
  accountId: string;
  date: string;
  meal: Meal | undefined;
}

/** New items with everything the originals were logged with (figures, portion, estimate, source), on `date`, in `meal` when given. */
export const copiesOf = <Item extends { meal: string | null }>(originals: readonly Item[], { accountId, date, meal }: Target) =>
  originals.map((original) => ({ ...original, id: crypto.randomUUID(), accountId, date, meal: meal ?? original.meal }));
