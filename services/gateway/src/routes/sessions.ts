import { ack, AppError, operations } from "@fit/contracts";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { connectedApps } from "../domain/connected-apps.ts";
import { sessionView } from "../domain/sessions.ts";
import type { Identity } from "../identity/identity.ts";
import type { IdentityStore } from "../store/identity-store.ts";

/**
 * The account's signed-in sessions. Only a session reaches these (the operations are `credential: "session"`),
 * so `request.credential` is the session making the request. A deleted session row is a 401 at its next request
 * on any gateway: the deletion is carried to every replica's credential cache before it is answered.
 */
export const sessionRoutes = (
  app: HttpApp,
  { store, identity }: {
    store: Pick<IdentityStore, "listSessions" | "deleteSession" | "deleteOtherSessions" | "connectedAppRows">;
    identity: Pick<Identity, "revoked" | "revokeConnectedApps">;
  },
) => {
  // authorize has already refused any other credential (the operations are session-only); this only narrows the type.
  const currentSession = (credential: { kind: string; id: string }) => {
    if (credential.kind !== "session") throw new AppError("forbidden", "only a signed-in session may do this");
    return credential.id;
  };

  serveOperation(app, operations.listSessions, async ({ caller, request }) => {
    const current = currentSession(request.credential);
    return (await store.listSessions(caller.accountId, new Date())).map((row) => sessionView(row, current));
  });

  serveOperation(app, operations.revokeSession, async ({ params, caller }) => {
    if (!(await store.deleteSession(caller.accountId, params.id))) throw new AppError("not_found", "session not found");
    await identity.revoked({ credentialId: params.id });
    return ack;
  });

  // Every cached credential of the account goes, the current session too: it is read again at its next request.
  // Agents keep their grants unless asked: signing out browsers should not silently cut them off
  // (docs/decisions/0057-connected-apps.md).
  serveOperation(app, operations.revokeOtherSessions, async ({ caller, request, query }) => {
    const count = await store.deleteOtherSessions(caller.accountId, currentSession(request.credential));
    let apps = 0;
    if (query.connectedApps === "revoke") {
      apps = connectedApps(await store.connectedAppRows(caller.accountId)).length;
      await identity.revokeConnectedApps(caller.accountId);
    } else {
      await identity.revoked({ accountId: caller.accountId });
    }
    return { ok: true as const, revoked: count, connectedApps: apps };
  });
};
