// Commands on body-metrics: weigh-ins, measurements, targets. Each writes through the gateway, checks the
// answer, applies the same change to the model, then compares every read with it (check.ts).
import fc from "fast-check";
import { expect } from "vitest";
import { verify, type Real } from "./check.ts";
import { DAY_MS, DAYS, SITES, dayStart, freeText, type AccountModel, type Model, type TargetValues } from "./model.ts";

type Cmd = fc.AsyncCommand<Model, Real>;
export type Who = 0 | 1;
export const NAMES = ["A", "B"] as const;
const dayOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);
/** The `pick`-th (modulo) of a non-empty list, in logging order: generated before the ids exist. */
export const nth = <T>(list: readonly T[], pick: number) => list[pick % list.length]!;

/** A acts three times as often as B: one account's state gets deep enough (targets and items on the same days). */
export const who = fc.oneof({ arbitrary: fc.constant<Who>(0), weight: 3 }, { arbitrary: fc.constant<Who>(1), weight: 1 });
export const noteArb = fc.constantFrom<string | null>(null, "", "  after run  ", "ok", "x".repeat(600));

class LogWeight implements Cmd {
  constructor(readonly who: Who, readonly day: string, readonly hour: number, readonly weightKg: number,
    readonly bodyFatPct: number | undefined, readonly note: string | null | undefined) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const ts = model.instant(this.day, this.hour);
    const body = { weightKg: this.weightKg, ts, ...(this.bodyFatPct !== undefined && { bodyFatPct: this.bodyFatPct }),
      ...(this.note !== undefined && { note: this.note }) };
    const response = await real.apis[this.who].post("/api/weight", body);
    expect(response.body).toEqual({ ok: true, id: expect.any(String) });
    model.accounts[this.who].weights.set(response.body.id, {
      id: response.body.id, ts, weightKg: this.weightKg, bodyFatPct: this.bodyFatPct ?? null, note: freeText(this.note),
    });
    await verify(model, real, this.who, [this.day]);
  }
  toString = () => `${NAMES[this.who]}.logWeight(${this.day} ${this.hour}h, ${this.weightKg} kg, fat ${this.bodyFatPct}, note ${JSON.stringify(this.note)})`;
}

class EditWeightNote implements Cmd {
  constructor(readonly who: Who, readonly pick: number, readonly note: string | null) {}
  check = (model: Readonly<Model>) => model.accounts[this.who].weights.size > 0;
  async run(model: Model, real: Real) {
    const reading = nth([...model.accounts[this.who].weights.values()], this.pick);
    const response = await real.apis[this.who].patch(`/api/weight/${reading.id}`, { note: this.note });
    expect(response.body).toEqual({ ok: true });
    reading.note = freeText(this.note);
    await verify(model, real, this.who, [dayOf(reading.ts)]);
  }
  toString = () => `${NAMES[this.who]}.editWeightNote(weight #${this.pick}, ${JSON.stringify(this.note)})`;
}

/** Where each kind of item is deleted, where the model keeps it, and the days its deletion can change. */
const deletable: Record<"weight" | "measurement" | "food", {
  path: string;
  items: (a: AccountModel) => Map<string, { id: string }>;
  days: (a: AccountModel, id: string) => string[];
}> = {
  weight: { path: "/api/weight", items: (a) => a.weights, days: (a, id) => [dayOf(a.weights.get(id)!.ts)] },
  measurement: { path: "/api/measurements", items: (a) => a.measurements, days: () => [] },
  food: { path: "/api/nutrition/items", items: (a) => a.food, days: (a, id) => [a.food.get(id)!.date] },
};

/** Deletes one of the account's items of a kind: answered `{ok: true}`, gone from the model, its id remembered. */
export class DeleteItem implements Cmd {
  constructor(readonly who: Who, readonly kind: keyof typeof deletable, readonly pick: number) {}
  check = (model: Readonly<Model>) => deletable[this.kind].items(model.accounts[this.who]).size > 0;
  async run(model: Model, real: Real) {
    const account = model.accounts[this.who];
    const { path, items, days } = deletable[this.kind];
    const { id } = nth([...items(account).values()], this.pick);
    const touched = days(account, id);
    expect((await real.apis[this.who].delete(`${path}/${id}`)).body).toEqual({ ok: true });
    items(account).delete(id);
    account.gone.push({ kind: this.kind, id });
    await verify(model, real, this.who, touched);
  }
  toString = () => `${NAMES[this.who]}.delete(${this.kind} #${this.pick})`;
}

class LogMeasurement implements Cmd {
  constructor(readonly who: Who, readonly site: string, readonly valueCm: number, readonly day: string, readonly hour: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const ts = model.instant(this.day, this.hour);
    const response = await real.apis[this.who].post("/api/measurements", { site: this.site, valueCm: this.valueCm, ts });
    expect(response.body).toEqual({ ok: true, id: expect.any(String) });
    model.accounts[this.who].measurements.set(response.body.id, { id: response.body.id, site: this.site, valueCm: this.valueCm, ts });
    await verify(model, real, this.who, [this.day]);
  }
  toString = () => `${NAMES[this.who]}.logMeasurement(${this.site} ${this.valueCm} cm, ${this.day} ${this.hour}h)`;
}

/** PUT replaces: every omitted field is cleared, so `{}` clears them all. */
class PutTargets implements Cmd {
  constructor(readonly who: Who, readonly input: Partial<TargetValues>) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const response = await real.apis[this.who].put("/api/targets", this.input);
    const values: TargetValues = {
      goalWeightKg: this.input.goalWeightKg ?? null, startWeightKg: this.input.startWeightKg ?? null,
      targetDate: this.input.targetDate ?? null, startDate: this.input.startDate ?? null,
      dailyKcalTarget: this.input.dailyKcalTarget ?? null, proteinTargetG: this.input.proteinTargetG ?? null,
    };
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ id: expect.any(Number), ...values });
    const account = model.accounts[this.who];
    account.targets = response.body;
    // /api/nutrition shows every day under the new targets; the dashboard of the newest logged day shows the bus path.
    await verify(model, real, this.who, account.dailyTotals().slice(0, 1).map((t) => t.date));
  }
  toString = () => `${NAMES[this.who]}.putTargets(${JSON.stringify(this.input)})`;
}

const hour = fc.integer({ min: 0, max: 23 });
const someTargets = fc.record(
  {
    goalWeightKg: fc.constantFrom(null, 70, 75.5), startWeightKg: fc.constantFrom(null, 85),
    startDate: fc.constantFrom(null, dayStart(DAYS[0])), targetDate: fc.constantFrom(null, dayStart(DAYS[4]) + 90 * DAY_MS),
    // 1000 and 2000 kcal put the 90 % and 110 % edges on the item amounts the food commands use; mostly set, so
    // the days an account logs usually have a target to be measured against.
    dailyKcalTarget: fc.oneof({ arbitrary: fc.constantFrom(1000, 2000), weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }),
    proteinTargetG: fc.constantFrom(null, 0, 50, 100),
  },
  { requiredKeys: ["dailyKcalTarget", "proteinTargetG"] },
);
/** `{}` clears every target (PUT replaces). */
const targets = fc.oneof({ arbitrary: fc.constant({}), weight: 1 }, { arbitrary: someTargets, weight: 4 });

/** Weighted: writes that build state come up more often than those that need some. */
export const bodyCommands: fc.WeightedArbitrary<Cmd>[] = [
  { weight: 2, arbitrary: fc.tuple(who, fc.constantFrom(...DAYS), hour, fc.integer({ min: 600, max: 950 }),
    fc.option(fc.constantFrom(15, 18.5), { nil: undefined }), fc.option(noteArb, { nil: undefined }))
    .map(([w, day, h, tenths, fat, note]) => new LogWeight(w, day, h, tenths / 10, fat, note)) },
  { weight: 1, arbitrary: fc.tuple(who, fc.nat(), noteArb).map(([w, pick, note]) => new EditWeightNote(w, pick, note)) },
  { weight: 1, arbitrary: fc.tuple(who, fc.nat()).map(([w, pick]) => new DeleteItem(w, "weight", pick)) },
  { weight: 2, arbitrary: fc.tuple(who, fc.constantFrom(...SITES), fc.integer({ min: 60, max: 130 }), fc.constantFrom(...DAYS), hour)
    .map(([w, site, cm, day, h]) => new LogMeasurement(w, site, cm, day, h)) },
  { weight: 1, arbitrary: fc.tuple(who, fc.nat()).map(([w, pick]) => new DeleteItem(w, "measurement", pick)) },
  { weight: 3, arbitrary: fc.tuple(who, targets).map(([w, input]) => new PutTargets(w, input)) },
];
