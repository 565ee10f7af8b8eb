import { ack, AppError, operations } from "@fit/contracts";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { ungrantableScope } from "../auth/scopes.ts";
import { apiKeyView, expiryBoundOf, grantNeedsRecentSignIn } from "../domain/api-keys.ts";
import { RECENT_SIGN_IN_MINUTES } from "../domain/recent-sign-in.ts";
import type { Identity } from "../identity/identity.ts";
import type { IdentityStore } from "../store/identity-store.ts";

interface KeyRoutesOptions {
  identity: Pick<Identity, "issueKey" | "revoked">;
  store: Pick<IdentityStore, "listApiKeys" | "deleteApiKey">;
}

/** The account's own API keys: create (the key shown once), list, revoke (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md). */
export const keyRoutes = (app: HttpApp, { identity, store }: KeyRoutesOptions) => {
  serveOperation(app, operations.createApiKey, async ({ body, caller, request }) => {
    const beyond = ungrantableScope({ ...caller, credential: request.credential }, body.scopes);
    if (beyond) throw new AppError("forbidden", `this credential cannot grant ${body.scopes ? `the ${beyond} scope` : "full data access"}: it does not hold it`);
    const needsSignIn = grantNeedsRecentSignIn(request.credential, body.scopes, Date.now());
    if (needsSignIn) {
      throw new AppError("forbidden", `sign in again to grant the ${needsSignIn} scope: it needs a session signed in within the last ${RECENT_SIGN_IN_MINUTES} minutes`);
    }
    const issued = await identity.issueKey(caller.accountId, {
      name: body.name,
      scopes: body.scopes,
      expiresInSeconds: body.expiresInDays === undefined ? undefined : body.expiresInDays * 86_400,
      notAfter: expiryBoundOf(request.credential),
    });
    return {
      id: issued.id,
      name: issued.name,
      prefix: issued.prefix,
      start: issued.start,
      scopes: body.scopes ?? null,
      createdAt: issued.createdAt.getTime(),
      expiresAt: issued.expiresAt?.getTime() ?? null,
      key: issued.key,
    };
  });

  serveOperation(app, operations.listApiKeys, async ({ caller }) => (await store.listApiKeys(caller.accountId)).map(apiKeyView));

  serveOperation(app, operations.revokeApiKey, async ({ params, caller }) => {
    if (!(await store.deleteApiKey(caller.accountId, params.id))) throw new AppError("not_found", "API key not found");
    await identity.revoked({ credentialId: params.id });
    return ack;
  });
};
