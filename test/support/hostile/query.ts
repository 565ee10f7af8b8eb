import fc from "fast-check";
import { excerpt } from "./body.ts";
import { validValue, type Target } from "./schema.ts";

/** Percent-encodes text; a lone surrogate (which encodeURIComponent refuses) becomes its CESU-8 bytes. */
const encode = (text: string) =>
  [...text].map((c) => { try { return encodeURIComponent(c); } catch { return "%ED%A0%80"; } }).join("");

const b64 = (text: string) => Buffer.from(text).toString("base64url");
const someId = "0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c";

/** Cursors are base64url of `[time, id]`: these decode to JSON the server did not write, or to no JSON at all. */
const cursors = [
  "WzEsImEiXQ", b64(`[${8.64e15 + 1},"${someId}"]`), b64(`[1e308,"${someId}"]`), b64(`[-1,"${someId}"]`), b64(`[1.5,"${someId}"]`),
  b64(`[4102444800001,"${someId}"]`), b64('[0,"\\u0000"]'), b64(`[0,"' OR 1=1 --"]`), b64(`["1","${someId}"]`), b64("{}"),
  b64("[]"), b64("null"), b64('[NaN,"x"]'), b64(`[0,"${someId}","extra"]`), b64("[[1],{}]"), b64(`[1e21,"${"x".repeat(100)}"]`),
  b64("[".repeat(100) + "]".repeat(100)), b64("\ud800"), "!!!!", "", "a".repeat(201), b64(`[-0,"${someId}"]`),
  b64(`[9007199254740993,"${someId}"]`), b64('[0,""]'), b64(`[0,"${someId.toUpperCase()}"]`), b64(`[0,"${someId}\\u0000"]`),
  b64('{"__proto__":{"x":1}}'), b64(`[${Date.now()},"not-a-uuid"]`),
].map(encode);

/** Query values that are wrong as numbers, days, enum words, or as URL encoding itself; already encoded. */
const hostileValues = [
  ...["0", "201", "100000", "-1", "1.5", "NaN", "Infinity", "-Infinity", "1e309", "-0", "1e2", "0x10", " 5", "5 ", "",
    "9".repeat(400), "٣", "1,2", "true", "null", "4102444800001", "99999999999999999999", "+5", "05", "1e-7",
    "2026-02-30", "today", "2026-1-1", "+002026-01-01", "0000-01-01", "275760-09-13", "2026-03-01T00:00:00Z", "1969-12-31",
    "9999-12-31", "0100-01-01", "2026-13-01", "2026-03-01\u0000", "WAIST", "waist\u0000", "__proto__", "toString",
    "\ud800", "😀", "\u202e", "e\u0301", "' OR 1=1 --", "a".repeat(6000)].map(encode),
  // Encoding that is itself broken or smuggles bytes, sent as is.
  "%00", "a%00b", "%ZZ", "%", "%E0%A4%A", "%ED%A0%80", "%C0%80", "%FF%FE", "%2F..%2F..", "%25%30%30", "+", "%0d%0aSet-Cookie:%20x=1",
  "%00".repeat(2000),
  ...cursors,
];

/** Parameters no operation declares, aimed at the query parser and at code that trusts the query object's prototype. */
const junk = [
  "__proto__=1", "__proto__[x]=1", "constructor[prototype][x]=1", "constructor=1", "toString=1", "hasOwnProperty=1",
  "a[b][c][d][e]=1", "%00=%00", "x=%ZZ", "%E0%A4%A=1", "=", "&&", `x=${"y".repeat(3000)}`, "limit=5", "site=waist",
];

const validFor = (name: string, schema: Target["query"][number]["schema"]) =>
  name === "cursor"
    ? fc.tuple(fc.nat({ max: 4_102_444_800 }), fc.uuid()).map(([s, id]) => b64(JSON.stringify([s * 1000, id])))
    : validValue(schema).map((v) => encode(typeof v === "number" ? String(Math.trunc(v)) : String(v)));

/** One declared parameter under attack: hostile, repeated, in array syntax, or without a value. */
const attacked = (name: string, schema: Target["query"][number]["schema"]) => {
  const hostile = fc.constantFrom(...hostileValues);
  return fc.oneof(
    { weight: 4, arbitrary: hostile.map((v) => `${name}=${v}`) },
    ...(name === "cursor" ? [{ weight: 4, arbitrary: fc.constantFrom(...cursors).map((v) => `${name}=${v}`) }] : []),
    { weight: 1, arbitrary: fc.tuple(validFor(name, schema), hostile).map(([a, b]) => `${name}=${a}&${name}=${b}`) },
    { weight: 1, arbitrary: hostile.map((v) => `${name}[]=${v}`) },
    { weight: 1, arbitrary: fc.constantFrom(name, `${name}=`, `${name}[0]=1&${name}[1]=2`) },
  );
};

/** One declared parameter that is not the focus: mostly left out or valid, so the attacked one is reached. */
const calm = (name: string, schema: Target["query"][number]["schema"]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    { weight: 5, arbitrary: validFor(name, schema).map((v) => `${name}=${v}`) },
    { weight: 1, arbitrary: attacked(name, schema) },
  );

/**
 * A query string (with its "?") for a target, and labels naming its hostile parts. One declared parameter is
 * the focus (or none, one time in four): a validator stops at the first bad one, so attacking all at once
 * would rarely get past the first.
 */
export const hostileQuery = (t: Target) =>
  fc
    .tuple(
      t.query.length
        ? fc.oneof({ weight: 3, arbitrary: fc.nat({ max: t.query.length - 1 }) }, { weight: 1, arbitrary: fc.constant(-1) })
        : fc.constant(-1),
      fc.tuple(...t.query.map((p) => fc.tuple(calm(p.name, p.schema), attacked(p.name, p.schema)))),
      fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.subarray(junk, { minLength: 1, maxLength: 2 }) }),
    )
    .map(([focus, declared, extra]) => {
      const parts = [...declared.map(([quiet, loud], i) => (i === focus ? loud : quiet)), ...extra].filter(Boolean);
      return { text: parts.length ? `?${parts.join("&")}` : "", labels: parts.length ? [`query ${excerpt(parts.join("&"), 80)}`] : [] };
    });
