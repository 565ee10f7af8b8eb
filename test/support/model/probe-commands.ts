// Commands that must change nothing: one account editing or deleting the other's ids, an account reusing an
// id it deleted; and a full comparison of both accounts on every day.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect } from "vitest";
import { NAMES, nth, who, type Who } from "./body-commands.ts";
import { verify, type Api, type Real } from "./check.ts";
import { DAYS, type AccountModel, type Model } from "./model.ts";

type Cmd = fc.AsyncCommand<Model, Real>;
type Kind = "weight" | "measurement" | "food";
type Op = "patch" | "delete";

const paths: Record<Kind, string> = { weight: "/api/weight", measurement: "/api/measurements", food: "/api/nutrition/items" };
/** Measurements have no edit operation: a PATCH on them is an unknown route, not what is tested here. */
const bodies: Record<Kind, unknown> = { weight: { note: "hacked" }, measurement: undefined, food: { kcal: 1, date: DAYS[0] } };

const send = (api: Api, kind: Kind, op: Op, id: string) =>
  op === "patch" && kind !== "measurement" ? api.patch(`${paths[kind]}/${id}`, bodies[kind]) : api.delete(`${paths[kind]}/${id}`);

/** "Another account's id answers exactly like an unknown one: 404" (README, "Ids"). */
const expectUnknown = async (api: Api, kind: Kind, op: Op, id: string) => {
  const response = await send(api, kind, op, id);
  const unknown = await send(api, kind, op, randomUUID());
  expect(unknown.status).toBe(404);
  expect({ status: response.status, body: response.body }, `${op} ${kind} ${id}`).toEqual({ status: 404, body: unknown.body });
};

const idsOf = (account: AccountModel, kind: Kind) =>
  kind === "weight" ? [...account.weights.keys()] : kind === "measurement" ? [...account.measurements.keys()] : [...account.food.keys()];

/** `intruder` edits or deletes one of the other account's ids; the owner's reads must not move. */
class Intrude implements Cmd {
  constructor(readonly intruder: Who, readonly kind: Kind, readonly op: Op, readonly pick: number) {}
  get victim(): Who {
    return this.intruder === 0 ? 1 : 0;
  }
  check = (model: Readonly<Model>) => idsOf(model.accounts[this.victim], this.kind).length > 0;
  async run(model: Model, real: Real) {
    const victim = model.accounts[this.victim];
    const id = nth(idsOf(victim, this.kind), this.pick);
    await expectUnknown(real.apis[this.intruder], this.kind, this.op, id);
    await verify(model, real, this.victim, this.kind === "food" ? [victim.food.get(id)!.date, DAYS[0]] : []);
  }
  toString = () => `${NAMES[this.intruder]}.${this.op}(${NAMES[this.victim]}'s ${this.kind} #${this.pick}) -> 404`;
}

/** An id the account itself deleted is gone for good (a deleted measurement is probed with DELETE either way). */
class ReuseDeleted implements Cmd {
  constructor(readonly who: Who, readonly op: Op, readonly pick: number) {}
  check = (model: Readonly<Model>) => model.accounts[this.who].gone.length > 0;
  async run(model: Model, real: Real) {
    const { kind, id } = nth(model.accounts[this.who].gone, this.pick);
    await expectUnknown(real.apis[this.who], kind, this.op, id);
    await verify(model, real, this.who, [DAYS[0]]);
  }
  toString = () => `${NAMES[this.who]}.${this.op}(own deleted #${this.pick}) -> 404`;
}

/** Both accounts, every day: what the per-command checks leave out (days not touched, the other account). */
class CheckAll implements Cmd {
  check = () => true;
  async run(model: Model, real: Real) {
    await Promise.all([verify(model, real, 0, DAYS), verify(model, real, 1, DAYS)]);
  }
  toString = () => "checkAll()";
}

export const probeCommands: fc.WeightedArbitrary<Cmd>[] = [
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom<Who>(0, 1), fc.constantFrom<Kind>("weight", "measurement", "food"), fc.constantFrom<Op>("patch", "delete"), fc.nat())
    .map(([w, kind, op, pick]) => new Intrude(w, kind, kind === "measurement" ? "delete" : op, pick)) },
  { weight: 1, arbitrary: fc.tuple(who, fc.constantFrom<Op>("patch", "delete"), fc.nat()).map(([w, op, pick]) => new ReuseDeleted(w, op, pick)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new CheckAll()) },
];
