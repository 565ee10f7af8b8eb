import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { installErrorHandling } from "./http-errors.ts";
import { ASSERTION_HEADER, verifyAssertion, type Caller } from "./assertion.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The account the gateway vouched for; set on every route of a service but the health probes. */
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** Reachable without the gateway's assertion: the health probes only. */
    public?: boolean;
  }
}

/** Bodies are small JSON documents; a larger one is a mistake or an attack (docs/decisions/0009-64kib-json-bodies.md). */
export const BODY_LIMIT = 64 * 1024;

export interface HttpAppOptions {
  name: string;
  logger: FastifyServerOptions["logger"];
  /** Throws when a dependency is not reachable; /readyz answers 503 then. */
  readiness: () => Promise<void>;
  /** Addresses of proxies whose X-Forwarded-For is believed for request.ip (unset: the socket's address). */
  trustProxy?: string | undefined;
}

/** The Fastify base every process shares: zod validation, the error envelope, health endpoints. */
export const createHttpApp = ({ name, logger, readiness, trustProxy }: HttpAppOptions) => {
  const app = Fastify({
    logger,
    trustProxy: trustProxy ?? false,
    bodyLimit: BODY_LIMIT,
    // Refuse prototype-pollution payloads outright rather than guessing what was meant
    // (docs/security.md#9-body-limits-and-prototype-poisoning).
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    return503OnClosing: true,
    forceCloseConnections: "idle",
    requestIdHeader: "x-request-id",
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is how a cross-site form sneaks past CORS, so it is a 415
  // (docs/security.md#7-csrf-defence-origin-check-and-json-only-bodies).
  app.removeContentTypeParser("text/plain");
  installErrorHandling(app);
  app.decorateRequest("caller", null as unknown as Caller);

  app.get("/healthz", { logLevel: "warn", config: { public: true } }, () => ({ status: "ok" as const, service: name }));
  app.get("/readyz", { logLevel: "warn", config: { public: true } }, async (request, reply) => {
    try {
      await readiness();
      return { status: "ok" as const, service: name };
    } catch (error) {
      request.log.warn({ err: error }, "not ready");
      return reply.status(503).header("retry-after", "5").send({ error: "not ready", detail: name });
    }
  });
  return app;
};

/**
 * A service behind the gateway: every request but the health probes must carry the gateway's signed assertion.
 * The route Fastify matched decides, not the URL's text, so no spelling of a path (encoded, doubled slashes,
 * an unknown route) gets past unchecked.
 */
export const createServiceApp = (options: HttpAppOptions & { assertionSecret: string }) => {
  const app = createHttpApp(options);
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config.public) return;
    const header = request.headers[ASSERTION_HEADER];
    request.caller = await verifyAssertion(options.assertionSecret, Array.isArray(header) ? header[0] : header);
  });
  return app;
};

export type HttpApp = ReturnType<typeof createHttpApp>;
