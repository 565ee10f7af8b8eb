// The steps a property run of the nutrition projection is made of: writes of two accounts through the API,
// interleaved with the duplicates and redeliveries a real bus may produce, and checks in between (not only at
// the end), so a projection that is right only once everything has settled is caught too.
import fc from "fast-check";

const kcal = fc.integer({ min: 0, max: 3000 });
// Whole and half grams: exactly representable, so sums compare exactly whatever order they are added in.
const protein = fc.integer({ min: 0, max: 400 }).map((halves) => halves / 2);
const who = fc.constantFrom(0, 1);
const day = fc.constantFrom(0, 1, 2);

type Command =
  | { kind: "log"; who: number; day: number; kcal: number; proteinG: number }
  | { kind: "edit"; who: number; pick: number; patch: { kcal?: number; proteinG?: number; day?: number } }
  | { kind: "delete"; who: number; pick: number }
  /** An already published event delivered again through the bus (new message id, so the bus keeps it). */
  | { kind: "republish"; pick: number }
  /** An already published event processed again with its own id, as a redelivery by the server would be. */
  | { kind: "redeliver"; pick: number }
  /** Let every event so far be handled, then check the stored projection (not only at the end). */
  | { kind: "settle" };

/** One step of a run: a write through the API, a duplicated or redelivered event, or a check. */
export const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("log" as const), who, day, kcal, proteinG: protein }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("edit" as const),
      who,
      pick: fc.nat(),
      patch: fc.record({ kcal, proteinG: protein, day }, { requiredKeys: [] }).filter((p) => Object.keys(p).length > 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), who, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("republish" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("redeliver" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ kind: "settle" as const }) },
);
