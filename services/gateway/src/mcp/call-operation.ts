import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { PHOTO_MEDIA_TYPES, type Operation } from "@fit/contracts";
import type { OperationAnswer } from "./tools.ts";

/** A path or query value as text (tool arguments are JSON: strings, numbers, booleans). */
const text = (value: unknown) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));

/** A photo route (docs/decisions/0079-photographed-logs.md): its tool takes the picture as base64 in `image`. */
export const takesPhoto = (op: Operation) => op.upload?.mediaTypes === PHOTO_MEDIA_TYPES;

/** Splits a tool's arguments back into the operation's path, query string and body. */
function toRequest(op: Operation, args: Record<string, unknown>) {
  const bodyKeys = new Set(op.body instanceof z.ZodObject ? Object.keys(op.body.shape) : []);
  const paramKeys = new Set(Object.keys(op.params?.shape ?? {}));
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(text(args[name] ?? "")));
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || paramKeys.has(name)) continue;
    if (bodyKeys.has(name)) body[name] = value;
    else query.set(name, text(value));
  }
  return { url: query.size > 0 ? `${path}?${query.toString()}` : path, body: op.body ? body : undefined };
}

/**
 * Calls the operation's REST route inside the gateway with the caller's own Authorization header: the request
 * meets the same authentication, scope check, rate limit and validation as one from outside, and reaches a
 * service with the gateway's internal assertion (the token itself never leaves the gateway).
 */
export const operationCaller = (app: FastifyInstance, authorization: string) =>
  async (op: Operation, args: Record<string, unknown>): Promise<OperationAnswer> => {
    // A photo goes as the raw body, as from any other client; the rest of its arguments are the query.
    const { image, mediaType, ...rest } = args;
    const photo = takesPhoto(op) ? { bytes: Buffer.from(String(image), "base64"), type: String(mediaType) } : undefined;
    const { url, body } = toRequest(op, photo ? rest : args);
    const response = await app.inject({
      method: op.method,
      url,
      headers: { authorization, ...(photo ? { "content-type": photo.type } : body ? { "content-type": "application/json" } : {}) },
      ...(photo ? { payload: photo.bytes } : body ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: response.statusCode, body: response.body ? (JSON.parse(response.body) as unknown) : null };
  };
