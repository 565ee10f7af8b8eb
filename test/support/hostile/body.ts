import fc from "fast-check";
import { alternatives, refusedValues, resolve, validValue, type Schema } from "./schema.ts";
import { deepArrays, deepObjects, edgeNumbers, hostileString, invalidJson, nonObjects, unraw } from "./values.ts";

/** A short, printable excerpt of a value, for labels that say which mutation a request carried. */
export const excerpt = (value: unknown, max = 40) => {
  const text = unraw(JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
};

export interface BodyPlan {
  /** The body text (with `byte` markers still in it), or undefined for no body at all. */
  text: string | undefined;
  /** Whether the contract refuses this body whatever the rest of the request says. */
  refused: boolean;
  labels: string[];
}

type Edit = (body: Record<string, unknown>) => string;

const keysOf = (schema: Schema, accepts: (s: Schema) => boolean) =>
  Object.entries(resolve(schema).properties ?? {}).filter(([, s]) => alternatives(s).some(accepts)).map(([k]) => k);

/** Changes the contract may or may not accept: hostile text, edge numbers, odd and mass-assignment keys. */
const softEdit = (schema: Schema, accountB: string): fc.Arbitrary<[string, Edit]> => {
  const strings = keysOf(schema, (s) => s.type === "string");
  const numbers = keysOf(schema, (s) => s.type === "number" || s.type === "integer");
  const set = (key: string, value: unknown): [string, Edit] => [`${key}=${excerpt(value)}`, (b) => ((b[key] = value), "")];
  const extras: [string, unknown][] = [
    // Writing to another account, or to server-owned fields, must never work.
    ["accountId", accountB], ["userId", accountB], ["account_id", accountB], ["id", accountB], ["source", "scale"],
    ["createdAt", 0], ["prototype", { polluted: true }], ["constructor", 1], ["toString", "x"], ["hasOwnProperty", 1],
    ["valueOf", {}], ["", 1], ["\u0000", 1], ["😀", 1], ["a".repeat(2000), 1],
  ];
  return fc.oneof(
    ...(strings.length ? [{ weight: 3, arbitrary: fc.tuple(fc.constantFrom(...strings), hostileString).map(([k, v]) => set(k, v)) }] : []),
    ...(numbers.length
      ? [{ weight: 1, arbitrary: fc.tuple(fc.constantFrom(...numbers), fc.constantFrom(...edgeNumbers)).map(([k, v]) => set(k, v)) }]
      : []),
    { weight: 1, arbitrary: fc.constantFrom(...extras).map(([k, v]) => set(k, v)) },
  );
};

/**
 * Appends a member to the serialized object, keeping it valid JSON whether or not it was empty. Last, because
 * with duplicate keys the last one wins: a soft edit of the same key must not quietly take the poison out.
 */
const append = (member: string) => (text: string) => `${text.slice(0, -1)}${text === "{}" ? "" : ","}${member}}`;

/** Changes the contract must refuse: a refused field value, a missing required field, a body that is no object. */
const hardEdit = (schema: Schema): fc.Arbitrary<[string, Edit | string]> => {
  const s = resolve(schema);
  const fields = Object.entries(s.properties ?? {}).map(([k, v]) => [k, refusedValues(v)] as const).filter(([, r]) => r.length);
  const serialized = (edit: (text: string) => string): Edit => (b) => edit(unraw(JSON.stringify(b)));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...fields).chain(([k, refused]) =>
      fc.constantFrom(...refused).map((v): [string, Edit] => [`${k}=${excerpt(v)}`, (b) => ((b[k] = v), "")])) },
    ...(s.required?.length
      ? [{ weight: 2, arbitrary: fc.constantFrom(...s.required).map((k): [string, Edit] => [`missing ${k}`, (b) => (delete b[k], "")]) }]
      : []),
    { weight: 2, arbitrary: fc.constantFrom(...nonObjects, ...invalidJson).map((t): [string, string] => [`text ${excerpt(t)}`, t]) },
    { weight: 1, arbitrary: fc.constantFrom<[string, string]>(
      // Nested objects go inside an array: a top-level object of unknown keys is a valid body where all fields are optional.
      ["30000 nested arrays", deepArrays(30_000)], ["9999 nested objects in an array", `[${deepObjects(9_999)}]`],
      ["empty body", ""], ["whitespace only", " \n\t "]) },
    { weight: 2, arbitrary: fc.constantFrom<[string, Edit]>(
      // Prototype poisoning, plain, escaped and nested: refused at parse time (docs/security.md).
      ["__proto__ key", serialized(append('"__proto__":{"polluted":true}'))],
      ["escaped __proto__ key", serialized(append('"\\u005f_proto__":{"polluted":true}'))],
      ["constructor.prototype", serialized(append('"constructor":{"prototype":{"polluted":true}}'))],
      ["nested __proto__", serialized(append('"x":[{"y":{"__proto__":{"polluted":true}}}]'))],
    ) },
    { weight: 1, arbitrary: fc.integer({ min: 66_000, max: 100_000 }).map((n): [string, Edit] =>
      [`over 64 KiB (${n})`, (b) => ((b.pad = "x".repeat(n)), "")]) },
  );
};

/** Changes to the text the contract need not refuse: a BOM, a shadowed duplicate key, padding, an escaped key name. */
const softText = fc.constantFrom<[string, (t: string) => string]>(
  ["", (t) => t], ["", (t) => t], ["", (t) => t], ["", (t) => t],
  ["BOM", (t) => `\ufeff${t}`],
  ["duplicate key, first shadowed", (t) => t.replace(/^\{"([^"]+)":/, '{"$1":{"__shadowed":[1,"2"]},"$1":')],
  ["duplicate key, original last", (t) => t.replace(/^\{"([^"]+)":/, '{"$1":"shadowed","$1":')],
  ["40 KB of whitespace", (t) => `${" \n\t\r".repeat(10_000)}${t}`],
  ["escaped key", (t) => t.replace(/^\{"(\w)/, (_m, c: string) => `{"\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)],
  // Not meaning-keeping, but not refused by the contract either (unknown keys are ignored): no claim is made.
  ["replaced by 10000 nested objects", () => deepObjects(10_000)],
);

/**
 * Bodies for an operation that takes one: a valid object from the schema, zero to two soft edits, then (when
 * `hard` is drawn, or the caller insists) one edit the contract must refuse.
 */
/** `accepts`, when given, makes a quarter of the bases ones the contract accepts as they are (its either/or rules too). */
export const bodyPlans = (schema: Schema, accountB: string, accepts?: (body: unknown) => boolean) =>
  fc
    .record({
      base: accepts
        ? fc.oneof({ weight: 1, arbitrary: validValue(schema).filter(accepts) }, { weight: 3, arbitrary: validValue(schema) })
        : validValue(schema),
      soft: fc.array(softEdit(schema, accountB), { maxLength: 2 }),
      hard: hardEdit(schema),
      text: softText,
      useHard: fc.nat({ max: 9 }).map((n) => n < 3),
    })
    .map(({ base, soft, hard, text, useHard }) => (forceHard: boolean): BodyPlan => {
      const body = { ...(base as Record<string, unknown>) };
      const labels = soft.map(([label, edit]) => (edit(body), `soft ${label}`));
      let refused = false;
      let replaced: string | undefined;
      if (useHard || forceHard) {
        const [label, edit] = hard;
        replaced = typeof edit === "string" ? edit : edit(body) || undefined;
        refused = true;
        labels.push(`hard ${label}`);
      }
      if (replaced !== undefined) return { text: replaced, refused, labels };
      const serialized = unraw(JSON.stringify(body));
      // The one text change that drops the body's content would also drop a hard edit's refusal.
      if (refused && text[0].startsWith("replaced")) return { text: serialized, refused, labels };
      if (text[0]) labels.push(`text ${text[0]}`);
      return { text: text[1](serialized), refused, labels };
    });

/** What a DELETE may carry anyway: nothing, or something no endpoint should choke on. */
export const deleteBodies = fc.oneof(
  { weight: 8, arbitrary: fc.constant<BodyPlan>({ text: undefined, refused: false, labels: [] }) },
  { weight: 2, arbitrary: fc.constantFrom(deepArrays(30_000), "{", '{"id":"x"}', "x".repeat(70_000)).map(
    (text): BodyPlan => ({ text, refused: false, labels: [`delete body ${excerpt(text)}`] })) },
);
