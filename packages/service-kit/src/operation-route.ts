import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import type { z } from "zod";
import { AppError, type Operation } from "@fit/contracts";
import type { Caller } from "./assertion.ts";
import { BODY_LIMIT, parseJson } from "./app.ts";
import { parseOrRefuse } from "./http-errors.ts";
import { noKey, serveKeyed, type RecordAnswer } from "./idempotency.ts";
import { JsonText } from "./json-text.ts";

export { JsonText };

declare module "fastify" {
  interface FastifyContextConfig {
    /** The contract operation a route serves, for the hooks that act on it (the gateway's scope check). */
    operation?: Operation;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** An upload route's JSON form keeps the 64 KiB every JSON body has; only its files may be larger. */
const parseJsonForm = (schema: z.ZodType, request: FastifyRequest) => {
  if (Number(request.headers["content-length"] ?? 0) > BODY_LIMIT) throw new AppError("payload_too_large", "request body is too large");
  return parseOrRefuse(schema, request.body);
};
/**
 * An upload route's JSON form keeps the 64 KiB every JSON body has, also when it is sent chunked (declaring no
 * length). The rest is read and dropped rather than the connection cut: the gateway is still sending it, and a
 * reset would reach the caller as a 503 instead of this 413.
 */
const jsonFormWithin = (limit: number) => (request: FastifyRequest, payload: Readable, done: (error: Error | null, value?: unknown) => void) => {
  const kept: Buffer[] = [];
  let received = 0;
  payload.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received <= limit) kept.push(chunk);
  });
  payload.once("error", done);
  payload.once("end", () => {
    if (received > limit) done(new AppError("payload_too_large", "request body is too large"));
    else parseJson(request, Buffer.concat(kept).toString("utf8"), done);
  });
};

/**
 * An upload route's body: the JSON form parsed, or a file's raw bytes; a streamed upload's file as the request
 * stream, unread and uncounted (its handler reads it as it arrives and enforces `upload.limitBytes` itself).
 */
type BodyOf<O extends Operation> = O["upload"] extends { streamed: true }
  ? Parsed<O["body"]> | Readable
  : O["upload"] extends object ? Parsed<O["body"]> | Buffer : Parsed<O["body"]>;

export interface OperationInput<O extends Operation> {
  body: BodyOf<O>;
  query: Parsed<O["query"]>;
  params: Parsed<O["params"]>;
  caller: Caller;
  request: FastifyRequest;
  /**
   * For an operation that takes an Idempotency-Key: the statements the store runs with the write, recording the
   * key with the answer (none without a key). Each creating handler passes `record(answer)` to its write.
   */
  record: RecordAnswer;
}


export type OperationHandler<O extends Operation> = (input: OperationInput<O>) => Promise<z.input<O["response"]> | JsonText>;

/**
 * Serves one contract operation: the request is parsed with its schemas, the reply serialized through its
 * response schema (which also keeps internal fields out), and the handler sees typed, validated input only.
 */
export const serveOperation = <O extends Operation>(app: FastifyInstance, op: O, handler: OperationHandler<O>): void => {
  const { upload } = op;
  const route: RouteOptions = {
    method: op.method,
    url: op.path,
    config: { operation: op },
    schema: {
      // An upload's JSON form is parsed in the handler: a schema here would refuse the file's bytes too.
      ...(op.body && !upload ? { body: op.body } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.params ? { params: op.params } : {}),
      response: { [op.status ?? 200]: op.response },
    },
    handler: async (request, reply) => {
      if (op.status) void reply.code(op.status);
      // The assertion hook sets the caller on every route a service serves; a handler never runs without one.
      if (!request.caller) throw new AppError("unauthenticated", "missing internal assertion");
      const file = Buffer.isBuffer(request.body) || request.body instanceof Readable;
      const body = upload && op.body && !file ? parseJsonForm(op.body, request) : request.body;
      const run = (record: RecordAnswer) =>
        handler({
          body: body as BodyOf<O>,
          query: request.query as Parsed<O["query"]>,
          params: request.params as Parsed<O["params"]>,
          caller: request.caller,
          request,
          record,
        });
      const response = op.idempotencyKey ? await serveKeyed(op, request, reply, body, run) : await run(noKey);
      if (!(response instanceof JsonText)) return response;
      // A string with a JSON content type is sent as it is (Fastify serializes only what is not a string).
      void reply.type("application/json; charset=utf-8");
      return response.text;
    },
  };
  if (!upload) return void app.route(route);
  // Only this route takes raw bytes, and only this route reads past the 64 KiB limit.
  void app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", jsonFormWithin(BODY_LIMIT));
    const fileTypes = upload.mediaTypes.filter((type) => type !== "application/json");
    if (upload.streamed) scope.addContentTypeParser(fileTypes, (_request, payload, done) => done(null, payload));
    else scope.addContentTypeParser(fileTypes, { parseAs: "buffer" }, (_request, bytes, done) => done(null, bytes));
    scope.route({ ...route, bodyLimit: upload.limitBytes });
  });
};
