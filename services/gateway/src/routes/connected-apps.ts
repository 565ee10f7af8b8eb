import { ack, AppError, operations } from "@fit/contracts";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { connectedApps } from "../domain/connected-apps.ts";
import type { Identity } from "../identity/identity.ts";
import type { IdentityStore } from "../store/identity-store.ts";

interface ConnectedAppRoutesOptions {
  store: Pick<IdentityStore, "connectedAppRows">;
  identity: Pick<Identity, "revokeConnectedApps">;
}

/**
 * The agents an account has let in over OAuth, managed like its API keys (scope `keys`: a session, or a key
 * granted `keys`; an agent's token never holds it). Revoking one ends its consent, its refresh tokens and its
 * access tokens at once, on every replica (docs/decisions/0057-connected-apps.md).
 */
export const connectedAppRoutes = (app: HttpApp, { store, identity }: ConnectedAppRoutesOptions) => {
  serveOperation(app, operations.listConnectedApps, async ({ caller }) => ({
    items: connectedApps(await store.connectedAppRows(caller.accountId)),
  }));

  serveOperation(app, operations.revokeConnectedApp, async ({ params, caller }) => {
    if (connectedApps(await store.connectedAppRows(caller.accountId, params.clientId)).length === 0) {
      throw new AppError("not_found", "no connected app with that client id");
    }
    await identity.revokeConnectedApps(caller.accountId, params.clientId);
    return ack;
  });
};
