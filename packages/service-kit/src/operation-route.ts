import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError, type Operation } from "@fit/contracts";
import type { Caller } from "./assertion.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The contract operation a route serves, for the hooks that act on it (the gateway's scope check). */
    operation?: Operation;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface OperationInput<O extends Operation> {
  body: Parsed<O["body"]>;
  query: Parsed<O["query"]>;
  params: Parsed<O["params"]>;
  caller: Caller;
  request: FastifyRequest;
}

export type OperationHandler<O extends Operation> = (input: OperationInput<O>) => Promise<z.input<O["response"]>>;

/**
 * Serves one contract operation: the request is parsed with its schemas, the reply serialized through its
 * response schema (which also keeps internal fields out), and the handler sees typed, validated input only.
 */
export const serveOperation = <O extends Operation>(app: Pick<FastifyInstance, "route">, op: O, handler: OperationHandler<O>): void => {
  app.route({
    method: op.method,
    url: op.path,
    config: { operation: op },
    schema: {
      ...(op.body ? { body: op.body } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.params ? { params: op.params } : {}),
      response: { 200: op.response },
    },
    handler: (request) => {
      // The assertion hook sets the caller on every route a service serves; a handler never runs without one.
      if (!request.caller) throw new AppError("unauthenticated", "missing internal assertion");
      return handler({
        body: request.body as Parsed<O["body"]>,
        query: request.query as Parsed<O["query"]>,
        params: request.params as Parsed<O["params"]>,
        caller: request.caller,
        request,
      });
    },
  });
};
