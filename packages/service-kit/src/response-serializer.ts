import fastJson from "fast-json-stringify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];
type Stringify = (data: unknown) => string;

/**
 * One compiled serializer per schema, not per route and status: routes share response schemas (the embedded
 * process compiled 43 serializers from 20 schemas), and each compile costs ~2 ms of start-up
 * (docs/decisions/0050-embedded-start-initial-old-space.md).
 */
const compiled = new WeakMap<z.ZodType, Stringify>();

const compile = (schema: z.ZodType): Stringify => {
  let stringify = compiled.get(schema);
  if (!stringify) {
    stringify = fastJson(z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "throw" }) as object) as Stringify;
    compiled.set(schema, stringify);
  }
  return stringify;
};

/** The serializer of `schema`, as a route replying with it uses. */
export const stringifyWith = (schema: z.ZodType): Stringify => {
  try {
    return compile(schema);
  } catch {
    return zodSerializerCompiler({ schema, method: "POST", url: "", httpStatus: "200" }) as Stringify;
  }
};

/** Each schema's serializer as routes get it, compiling on its first use. */
const serializers = new WeakMap<z.ZodType, Stringify>();

/**
 * Replies serialized by fast-json-stringify, compiled from each route's response schema (its output side as
 * JSON Schema): only the declared properties are written, so internal fields stay out as with zod's encode, at
 * a fraction of its cost on every reply (docs/decisions/0037-replies-serialized-from-their-json-schema.md). A
 * schema JSON Schema cannot express falls back to zod's serializer. Compiled on a schema's first reply, not when
 * Fastify starts: most routes answer nothing in a session, and compiling them all was ~0.1 s of the embedded
 * start (docs/performance.md, "Embedded start").
 */
export const responseSerializerCompiler = (route: SerializerCompiler): Stringify => {
  const { schema } = route;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route) as Stringify;
  let serializer = serializers.get(schema);
  if (!serializer) {
    let stringify: Stringify | undefined;
    serializer = (data) => (stringify ??= stringifyWith(schema))(data);
    serializers.set(schema, serializer);
  }
  return serializer;
};
