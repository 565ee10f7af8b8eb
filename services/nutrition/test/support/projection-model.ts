// The reference the daily-total projection is checked against, by the service's property test and by the
// end-to-end fault test alike: one definition of "correct", so the two cannot drift apart.

interface DayAmounts {
  date: string;
  kcal: number;
  proteinG: number;
}

/**
 * One account's current items, reduced to what a daily total is made of. It follows the writes only, never the
 * events: whatever order or multiplicity the events reach the projection in, the projection must end equal to
 * these sums (docs/security.md, "Every acknowledged event is applied once").
 */
export class ProjectionModel {
  readonly #items = new Map<string, DayAmounts>();

  has(id: string) {
    return this.#items.has(id);
  }

  log(id: string, item: DayAmounts) {
    this.#items.set(id, { ...item });
  }

  edit(id: string, patch: Partial<DayAmounts>) {
    const item = this.#items.get(id);
    if (item) this.#items.set(id, { ...item, ...patch });
  }

  delete(id: string) {
    this.#items.delete(id);
  }

  /**
   * Each day's total is the sum of that day's items; a day without items has none. Newest day first, as the API
   * lists them. The items are typed as kcal and protein only, so each day's fat, carbs and fibre are unknown and
   * every item counts as one without them (docs/decisions/0067-day-macros-sum-what-is-known.md).
   */
  totals() {
    const byDate = new Map<string, DayAmounts & { fatG: null; carbsG: null; fiberG: null; macrosUnknownItems: number }>();
    for (const item of this.#items.values()) {
      const total = byDate.get(item.date) ?? { date: item.date, kcal: 0, proteinG: 0, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 0 };
      total.kcal += item.kcal;
      total.proteinG += item.proteinG;
      total.macrosUnknownItems += 1;
      byDate.set(item.date, total);
    }
    return [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : -1));
  }
}
