import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { installErrorHandling } from "./http-errors.ts";
import { ASSERTION_HEADER, verifyAssertion, type Caller } from "./assertion.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The account the gateway vouched for; set on every /api route of a service. */
    caller: Caller;
  }
}

/** Bodies are small JSON documents; a larger one is a mistake or an attack (decisions.md: 64 KiB). */
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
    // Refuse prototype-pollution payloads outright (security.md 25) rather than guessing what was meant.
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    return503OnClosing: true,
    forceCloseConnections: "idle",
    requestIdHeader: "x-request-id",
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is how a cross-site form sneaks past CORS (security.md 14), so it is a 415.
  app.removeContentTypeParser("text/plain");
  installErrorHandling(app);
  app.decorateRequest("caller", null as unknown as Caller);

  app.get("/healthz", { logLevel: "warn" }, () => ({ status: "ok" as const, service: name }));
  app.get("/readyz", { logLevel: "warn" }, async (request, reply) => {
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

/** A service behind the gateway: every /api request must carry the gateway's signed assertion. */
export const createServiceApp = (options: HttpAppOptions & { assertionSecret: string }) => {
  const app = createHttpApp(options);
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    const header = request.headers[ASSERTION_HEADER];
    request.caller = await verifyAssertion(options.assertionSecret, Array.isArray(header) ? header[0] : header);
  });
  return app;
};

export type HttpApp = ReturnType<typeof createHttpApp>;
