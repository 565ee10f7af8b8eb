import fc from "fast-check";

/**
 * The raw material of hostile requests. Bodies are built as JS values, serialized with JSON.stringify and then
 * patched, because some inputs cannot be written by JSON.stringify: numbers such as 1e309 or -0 (marked with
 * `raw`) and bytes that are not UTF-8 (marked with `byte`, spliced in when the body is encoded).
 */
export const raw = (text: string) => `@@raw:${text}@@`;
const byte = (...hex: string[]) => hex.map((h) => `@@byte:${h}@@`).join("");

/** Replaces `"@@raw:x@@"` (quotes included) by x in serialized JSON. */
export const unraw = (json: string) => json.replace(/"@@raw:(.*?)@@"/g, (_all, text: string) => text);

/** Text to bytes in the given charset, with the `byte` markers turned into the bytes they name. */
export const encodeBody = (text: string, charset: "utf8" | "latin1" = "utf8"): Buffer =>
  Buffer.concat(
    text.split(/(@@byte:[0-9a-f]{2}@@)/).map((part) => {
      const marked = /^@@byte:([0-9a-f]{2})@@$/.exec(part);
      return marked ? Buffer.from(marked[1]!, "hex") : Buffer.from(part, charset);
    }),
  );

/** What an internal detail looks like in a reply: SQL, driver and ORM text, source paths, stack frames. */
export const LEAK =
  /\bSELECT\b.*\bFROM\b|\b(INSERT INTO|UPDATE \S+ SET|DELETE FROM)\b|violates|prisma|invalid byte sequence|invalid input syntax|postgres|pg_|duplicate key|syntax error at|relation "|\/work\/|node_modules|file:\/\/|\.ts:\d|(\n|\\n)\s+at \S|\b(TypeError|RangeError|ReferenceError)\b|Unexpected token|in JSON at position|Maximum call stack/i;

/** Unicode that breaks naive code: NUL, lone surrogates, bidi controls, combining marks, non-characters. */
const unicodeEdges = [
  "\u0000", "a\u0000b", "\u0000\u0000\u0000", "\ud800", "\udfff", "x\ud83d", "\ude00y", "\u202etxt.exe", "\u200f\u200e\u202a",
  "😀", "👨‍👩‍👧‍👦", "🏳️‍🌈", "e\u0301\u0301\u0301\u0301", "Z\u0337\u0322\u0327\u031b\u0353a\u0338l", "\ufeff", "\uffff", "\ufffe",
  "\u2028\u2029", "\t\r\n\u000b\f", "\u0007\u001b[31m", " ", "", "\u00a0\u3000", "ｆｕｌｌ", "𝕏𝔂", "\u{10ffff}", "İı", "ß", "ﷺ",
];

/** Strings that are valid JSON but mean trouble to interpreters, templates, file systems and decoders. */
const malformedStrings = [
  "' OR '1'='1", "'); DROP TABLE items; --", "\\", "\"", "%00", "%s%s%n", "${7*7}", "{{7*7}}", "<script>alert(1)</script>",
  "../../etc/passwd", "C:\\Windows\\win.ini", "null", "undefined", "NaN", "[]", "{}", "0x41", "-0", "1e309",
  `a${byte("ff")}b`, byte("c3"), byte("ed", "a0", "80"), byte("c0", "80"), byte("f4", "90", "80", "80"), byte("fe", "ff"),
];

/** Strings of about 1, 10 and 60 KB once serialized, each one unit repeated (built once: they are reused). */
const large = ["a", "é", "😀", "\u0000", "e\u0301", " ", "\ud800"].flatMap((unit) => {
  const each = Math.max(1, Buffer.byteLength(JSON.stringify(unit)) - 2);
  return [1_000, 10_000, 60_000].map((bytes) => unit.repeat(Math.max(1, Math.floor(bytes / each))));
});

/** Any code point, surrogates included (fast-check's "binary" unit would index all of Unicode first). */
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((n) => String.fromCodePoint(n));

/** Any hostile string: edge cases, mixtures, random code points and large ones (mostly under 64 KiB). */
export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...unicodeEdges, ...malformedStrings) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...unicodeEdges, "a", "1"), { minLength: 2, maxLength: 8 }).map((a) => a.join("")) },
  // Random text could spell a leak pattern by chance and then be echoed back; such draws are left out.
  { weight: 2, arbitrary: fc.string({ unit: codePoint, maxLength: 30 }).filter((s) => !LEAK.test(s)) },
  { weight: 1, arbitrary: fc.constantFrom(...large) },
);

/** Nesting that a recursive parser, validator, logger or serializer may not survive. */
export const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
export const deepObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** Values of each JSON type, to put where another type is expected. */
export const wrongTyped: readonly (readonly [string, unknown])[] = [
  ["string", "81"], ["string", ""], ["string", "NaN"], ["string", "Infinity"], ["string", "1e309"], ["string", "\u0000"],
  ["boolean", true], ["boolean", false], ["array", []], ["array", [80]], ["array", raw(deepArrays(20_000))],
  ["object", {}], ["object", { $gt: 0 }], ["object", raw(deepObjects(5_000))], ["number", 0], ["number", -1], ["number", 1e308],
  ["null", null],
];

/** Numbers at the edges of what JSON and IEEE 754 allow; valid or not depending on the field. */
export const edgeNumbers = [
  raw("-0"), raw("0.0"), raw("1e-400"), raw("-1e-400"), raw("1E2"), raw("1e+2"), raw("0.1e1"), raw("9007199254740993"),
  raw("123456789012345678901234567890"), raw("80.000000000000000000000001"), raw("4102444800000.0000001"), 5e-324, 2 ** 53,
];

/** Text that is not JSON, or JSON a strict parser must refuse (raw control characters, NaN, comments). */
export const invalidJson = [
  "{", "}", "{\"a\":", "{\"a\":1,}", "{'a':1}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":1}}", "{\"a\":1} trailing",
  "/* c */ {}", "{\"a\":\"\u0000\"}", "{\"a\":\"unterminated}", "[1,2", "nul", "\u0000", "{\"a\":01}", "{\"a\":.5}", "{\"a\":+1}",
  "{\"a\":\"\\x41\"}", "{\"a\":\"\\ud800\\\"}", "\ufeff\ufeff{}", "{\"a\" 1}", "[,]", "{\"a\":1,\"a\"}", byte("ff", "fe"),
];

/** Non-object JSON documents, for endpoints that take an object. */
export const nonObjects = ["[]", "[{}]", "\"text\"", "0", "-1", "true", "null", "1e309", "\"\\u0000\""];
