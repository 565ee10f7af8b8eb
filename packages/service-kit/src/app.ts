import Fastify, { LogController, type FastifyServerOptions } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "@fit/contracts";
import { installBodyDoor } from "./body-door.ts";
import { installRequestDeadlines, type RequestDeadlines } from "./request-deadlines.ts";
import { installErrorHandling, replyToClientError, replyToFrameworkError } from "./http-errors.ts";
import { parseJsonBody, refuseNul } from "./json-body.ts";
import { recordRequests } from "./metrics.ts";
import { responseSerializerCompiler } from "./response-serializer.ts";
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
const HEADERS_TIMEOUT_MS = 10_000;
/** A body's deadlines unless the configuration says otherwise (REQUEST_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS). */
const REQUEST_TIMEOUT_MS = 30_000;
const UPLOAD_IDLE_TIMEOUT_MS = 60_000;

export interface HttpAppOptions {
  name: string;
  logger: FastifyServerOptions["logger"];
  /** Throws when a dependency is not reachable; /readyz answers 503 then. */
  readiness: () => Promise<void>;
  /** Addresses of proxies whose X-Forwarded-For is believed for request.ip (unset: the socket's address). */
  trustProxy?: string | undefined;
  deadlines?: Partial<RequestDeadlines> | undefined;
}

/**
 * Fastify's "incoming request" and "request completed" lines, two per request at info, cost a hot path more
 * than its own work; they are logged at LOG_LEVEL debug or trace only. Failures are logged whatever the level.
 */
const logsEveryRequest = (logger: HttpAppOptions["logger"]) =>
  typeof logger === "object" && logger !== null && "level" in logger && (logger.level === "debug" || logger.level === "trace");

/** The one JSON parser: refuses what no handler should see (prototype-pollution keys, NUL, stack-deep nesting). */
export const parseJson = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
  try {
    done(null, parseJsonBody(body as string));
  } catch (error) {
    done(error as Error);
  }
};

/** The Fastify base every process shares: zod validation, the error envelope, health endpoints. */
export const createHttpApp = ({ name, logger, readiness, trustProxy, deadlines }: HttpAppOptions) => {
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: !logsEveryRequest(logger) }),
    trustProxy: trustProxy ?? false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: "idle",
    requestIdHeader: "x-request-id",
    // Timeouts on purpose: a client that drips its headers or body slowly cannot hold a connection for long. The
    // body's are installRequestDeadlines', per route (a streamed upload's is an idle timeout), so Node's is off.
    requestTimeout: 0,
    // Node checks the headers' deadline every 30 s by default; every 2 s, a dripping client is cut close to it.
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 2_000 },
    // Errors Node answers before Fastify sees a request (431, a malformed request line) leave in the envelope.
    clientErrorHandler: replyToClientError,
    frameworkErrors: replyToFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  // One parser refuses what no handler should see: prototype-pollution keys, NUL, stack-deep nesting.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, parseJson);
  // JSON only: a text/plain body is how a cross-site form sneaks past CORS, so it is a 415
  // (docs/security.md#7-csrf-defence-origin-check-and-json-only-bodies).
  app.removeContentTypeParser("text/plain");
  app.addHook("onRequest", async (request) => {
    // A malformed escape (`?x=%ZZ`) is the client's mistake; left alone it fails whoever decodes the URL later.
    try {
      decodeURIComponent(request.url);
    } catch {
      throw new AppError("validation", "malformed URL");
    }
  });
  app.addHook("preValidation", async (request) => {
    // Query strings and path parameters carry text too (flat: a repeated key gives an array of strings).
    const records = [request.query, request.params] as (Record<string, unknown> | undefined)[];
    refuseNul(...records.flatMap((record): unknown[] => Object.values(record ?? {}).flat()));
  });
  installErrorHandling(app);
  installBodyDoor(app);
  installRequestDeadlines(app, {
    requestMs: deadlines?.requestMs ?? REQUEST_TIMEOUT_MS,
    uploadIdleMs: deadlines?.uploadIdleMs ?? UPLOAD_IDLE_TIMEOUT_MS,
  });
  recordRequests(app, name);
  app.decorateRequest("caller", null as unknown as Caller);
  // A keep-alive connection whose request finishes after close() began would hold the server open until its
  // keep-alive timeout (72 s), past any shutdown's grace period, and the drain of the bus and the database
  // behind it would never run: such a response ends its connection.
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });

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
