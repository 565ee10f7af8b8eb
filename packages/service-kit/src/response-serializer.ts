import fastJson from "fast-json-stringify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Replies serialized by fast-json-stringify, compiled from each route's response schema (its output side as
 * JSON Schema): only the declared properties are written, so internal fields stay out as with zod's encode, at
 * a fraction of its cost on every reply (docs/decisions/0037-replies-serialized-from-their-json-schema.md). A
 * schema JSON Schema cannot express falls back to zod's serializer.
 */
export const responseSerializerCompiler = (route: SerializerCompiler) => {
  const { schema } = route;
  if (schema instanceof z.ZodType) {
    try {
      const stringify: (data: unknown) => string = fastJson(z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "throw" }) as object);
      return stringify;
    } catch {
      // A transform or custom type: zod's own encode.
    }
  }
  return zodSerializerCompiler(route);
};
