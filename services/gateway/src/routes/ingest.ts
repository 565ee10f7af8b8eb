import type { FastifyReply, FastifyRequest } from "fastify";
import { ack, AppError, bodyMetricsBus, operations } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import type { IngestTokenMatcher } from "../auth/ingest-token.ts";
import type { IdentityStore } from "../store/identity-store.ts";

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

interface IngestOptions {
  bus: Bus;
  store: Pick<IdentityStore, "findAccountByEmail">;
  /** Null when INGEST_TOKEN is unset: the route answers 404. */
  isIngestToken: IngestTokenMatcher | null;
  timeoutMs: number;
  /** The API's per-account rate limit, and the per-address count of refused credentials. */
  perAccount: Hook;
  refused: Hook;
}

/**
 * `POST /api/ingest/weight`: a scale's reading, authenticated by the shared token rather than an account's
 * credential, for the account its body names by email (docs/decisions/0021-scale-ingest-token.md). Registered
 * in a scope of its own, outside the API's authentication hooks. body-metrics stores the reading once per
 * (account, externalId or ts); the account id travels in the bus request, as the dashboard's do.
 */
export const ingestRoute = async (app: HttpApp, options: IngestOptions) => {
  const { bus, store, isIngestToken, timeoutMs, perAccount, refused } = options;
  await app.register(async (scope) => {
    scope.addHook("onRequest", async (request, reply) => {
      if (!isIngestToken) throw new AppError("not_found", "not found");
      if (isIngestToken(request.headers.authorization)) return;
      await refused(request, reply);
      void reply.header("www-authenticate", 'Bearer realm="ingest"');
      throw new AppError("unauthenticated", "send the ingest token as Authorization: Bearer <token>");
    });
    // After the body is parsed: the account it names is the caller, and its rate limit applies.
    scope.addHook("preHandler", async (request, reply) => {
      const { email } = request.body as { email: string };
      const account = await store.findAccountByEmail(email);
      if (!account) throw new AppError("not_found", "no account has this email");
      request.caller = { accountId: account.id, email: account.email, scopes: ["weight:write"] };
      await perAccount(request, reply);
    });
    serveOperation(scope, operations.ingestWeight, async ({ body, caller }) => {
      await bus.request(
        bodyMetricsBus.ingestWeight,
        { accountId: caller.accountId, weightKg: body.weightKg, bodyFatPct: body.bodyFatPct ?? null, ts: body.ts ?? Date.now(), externalId: body.externalId ?? null },
        { timeoutMs },
      );
      return ack;
    });
  });
};
