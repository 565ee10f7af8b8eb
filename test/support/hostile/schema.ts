import fc from "fast-check";
import { authRoutes, buildOpenApiDocument, operationList, toOpenApiPath } from "@fit/contracts";
import { raw, wrongTyped } from "./values.ts";

/** The part of JSON Schema the generated OpenAPI document uses for request inputs. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  examples?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Parameter { in: "query" | "path"; name: string; required?: boolean; schema: Schema }

/** One thing to attack: a contract operation, or the public sign-in route, as the OpenAPI document describes it. */
export interface Target {
  id: string;
  method: string;
  /** Fastify-style path (`/api/weight/:id`). */
  path: string;
  /** The scope an API key needs; none for the public sign-in route. */
  scope?: string;
  /** Which credential alone may call it, when not any holding the scope (the contracts' `credential`). */
  credential?: "session" | "ingest-token";
  body?: Schema;
  /** Whether the contract accepts a body: what JSON Schema's properties cannot say (an either/or) included. */
  accepts?: (body: unknown) => boolean;
  query: Parameter[];
}

interface DocumentOperation { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }

// Requests are generated from the published description, so whatever a client can read is what is attacked.
const document = buildOpenApiDocument({ version: "hostile" }) as unknown as {
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { schemas: Record<string, Schema> };
};

export const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.split("/").at(-1)!]!) : schema;

/** The alternatives a value may take, one JSON type each (anyOf and type lists flattened). */
export const alternatives = (schema: Schema): Schema[] => {
  const s = resolve(schema);
  if (s.anyOf) return s.anyOf.flatMap(alternatives);
  if (Array.isArray(s.type)) return s.type.map((type) => ({ ...s, type }));
  return [s];
};

const fromDocument = (method: string, path: string, extra: Partial<Target>): Target => {
  const operation = document.paths[toOpenApiPath(path)]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return {
    id: operation.operationId, method, path, ...extra,
    ...(operation.requestBody ? { body: operation.requestBody.content["application/json"]!.schema } : {}),
    query: (operation.parameters ?? []).filter((p) => p.in === "query"),
  };
};

const signIn = authRoutes.find((route) => route.path === "/api/auth/sign-in/magic-link")!;

/** Every operation in the contracts, plus the sign-in route that takes a body from anyone. */
export const targets: Target[] = [
  ...operationList.map((op) =>
    fromDocument(op.method, op.path, {
      scope: op.scope,
      ...(op.credential ? { credential: op.credential } : {}),
      ...(op.body ? { accepts: (body: unknown) => op.body!.safeParse(body).success } : {}),
    })),
  fromDocument(signIn.method, signIn.path, {}),
];

/** Account A's email: generated emails name it often, so a scale's reading for it (the ingest token) is accepted. */
export const ACCOUNT_A_EMAIL = "hostile-a@example.com";

/** Days the generated bodies and queries use, so the state check knows which days to read. */
export const DATES = ["2026-03-01", "2026-03-02", "2026-03-03"];
/**
 * The schema's first example, where it has a text one (JSON Schema 2020-12 `examples`); an object's example is sent
 * as it is half the time, for bodies whose fields must agree with each other (a food and a portion it has).
 */
const exampleOf = (s: Schema) => (typeof s.examples?.[0] === "string" ? s.examples[0] : undefined);
const isDay = (s: Schema) => /^\d{4}-\d{2}-\d{2}$/.test(exampleOf(s) ?? "");

/**
 * A number spread evenly over [min, max] (never min itself): doubles drawn by bit pattern are mostly tiny, so a body
 * whose numbers must add up to something (a recipe's serving of at least 1 g) would almost never be accepted.
 */
const humanScale = (min: number, max: number) => fc.integer({ min: 1, max: 1000 }).map((n) => min + ((max - min) * n) / 1000);

/** A value the schema accepts (mostly: strings are plain but not always trimmed-valid). */
export const validValue = (schema: Schema): fc.Arbitrary<unknown> =>
  fc.oneof(...alternatives(schema).map((s) => ({ weight: s.type === "null" ? 1 : 4, arbitrary: validAlternative(s) })));

const validAlternative = (s: Schema): fc.Arbitrary<unknown> => {
  const min = s.minimum ?? s.exclusiveMinimum ?? -1e6;
  const max = s.maximum ?? 1e6;
  switch (s.type) {
    case "null": return fc.constant(null);
    case "integer": return fc.double({ min, max, noNaN: true }).map(Math.trunc);
    case "number": return fc.oneof(fc.double({ min, max, noNaN: true, minExcluded: s.exclusiveMinimum !== undefined }), humanScale(min, max));
    case "object": return s.examples?.[0] === undefined ? validObject(s) : fc.oneof(fc.constant(s.examples[0]), validObject(s));
    case "array":
      return fc.array(validValue(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    default: {
      if (s.enum) return fc.constantFrom(...s.enum);
      if (isDay(s)) return fc.constantFrom(...DATES);
      if (s.format === "email") return fc.oneof(fc.constant(ACCOUNT_A_EMAIL), fc.nat({ max: 50 }).map((n) => `hostile-${n}@example.com`));
      const random = fc.string({ minLength: 1, maxLength: Math.min(s.maxLength ?? 40, 40) }).map((t) => `v${t}`.slice(0, s.maxLength ?? 41));
      // Free text that means something (a food, a workout, a time zone, a file) reaches what reads it, not only its
      // refusal: hostile text is what the soft edits send.
      const example = exampleOf(s);
      return example === undefined ? random : fc.oneof({ weight: 3, arbitrary: fc.constant(example) }, { weight: 1, arbitrary: random });
    }
  }
};

const validObject = (s: Schema) =>
  fc.record(
    Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, validValue(value)])),
    { requiredKeys: s.required ?? [] },
  );

/**
 * Values the schema refuses whatever else the body holds: another JSON type, a number out of its bounds
 * (1e309 parses as Infinity), a word outside its enum, a day that is not on the calendar.
 */
export const refusedValues = (schema: Schema): unknown[] => {
  const options = alternatives(schema);
  const types = new Set(options.map((s) => (s.type === "integer" ? "number" : s.type)));
  const refused: unknown[] = wrongTyped.filter(([type]) => !types.has(type)).map(([, value]) => value);
  for (const s of options) {
    if (s.type === "number" || s.type === "integer") {
      const lo = s.minimum ?? s.exclusiveMinimum;
      if (s.maximum !== undefined) refused.push(s.maximum + 1, s.maximum * 1e6 + 1, raw("1e309"));
      if (lo !== undefined) refused.push(s.exclusiveMinimum ?? lo - 1, -1e308, raw("-1e309"));
      if (s.type === "integer" && lo !== undefined) refused.push(lo + 0.5);
    }
    if (s.type === "string" && s.enum) refused.push(s.enum[0]!.toUpperCase(), `${s.enum[0]}\u0000`, "__proto__", "toString");
    if (s.type === "array" && s.minItems) refused.push([]);
    if (s.type === "string" && isDay(s)) refused.push("2026-02-30", "today", "2026-1-1", "0000-01-01", "2026-03-01T00:00:00Z", "");
  }
  return refused;
};
