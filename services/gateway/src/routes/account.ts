import { Readable } from "node:stream";
import { accountExportParts, AppError, operations } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { confirmsDeletion, exportDocument } from "../domain/account.ts";
import { apiKeyView } from "../domain/api-keys.ts";
import { RECENT_SIGN_IN_MINUTES } from "../domain/recent-sign-in.ts";
import type { Identity } from "../identity/identity.ts";
import type { IdentityStore } from "../store/identity-store.ts";

/** Rows per question: well inside NATS's 1 MB message limit even for workouts with long exercise lists. */
const PAGE_ROWS = 200;
const PAGE_TIMEOUT_MS = 10_000;

/**
 * Export and deletion of the caller's account (docs/decisions/0025-account-export-and-deletion.md). The export is
 * streamed as the services answer, page by page over the bus; deletion removes the identity at once and tells
 * the services by an event.
 */
export const accountRoutes = (
  app: HttpApp,
  { store, bus, relay, revoked }: { store: IdentityStore; bus: Bus; relay: { kick(): void }; revoked: Identity["revoked"] },
) => {
  const exportOp = operations.exportAccount;
  // Not serveOperation: the reply is a stream, which Fastify pipes as it is read instead of serializing it.
  app.get(exportOp.path, { config: { operation: exportOp } }, async (request, reply) => {
    const { accountId } = request.caller;
    const [profile, keys] = await Promise.all([store.account.profile(accountId), store.listApiKeys(accountId)]);
    if (!profile) throw new AppError("unauthenticated", "the account no longer exists");
    const head = {
      exportedAt: Date.now(),
      account: { id: profile.id, email: profile.email, createdAt: profile.createdAt.getTime() },
      apiKeys: keys.map(apiKeyView),
    };
    const document = exportDocument(head, (part, after) =>
      bus.request(accountExportParts[part], { accountId, after, limit: PAGE_ROWS }, { timeoutMs: PAGE_TIMEOUT_MS }),
    );
    return reply
      .type("application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="${exportOp.attachment}"`)
      .header("cache-control", "no-store")
      .send(Readable.from(document));
  });

  serveOperation(app, operations.deleteAccount, async ({ caller, request }) => {
    if (!confirmsDeletion(request.credential, Date.now())) {
      throw new AppError("forbidden", `sign in again to delete the account: it needs a session signed in within the last ${RECENT_SIGN_IN_MINUTES} minutes`);
    }
    await store.account.delete(caller.accountId);
    await revoked({ accountId: caller.accountId });
    relay.kick();
    return { ok: true as const };
  });
};
