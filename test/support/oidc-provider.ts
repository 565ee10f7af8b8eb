// A real OpenID provider (oidc-provider) on a free loopback port, with one confidential client and the users a
// test adds. Its login and consent are one tiny interaction endpoint the test calls over HTTP:
// GET /interaction/<uid>?account=<sub> signs that user in and grants what the client asked for.
import http from "node:http";
import Provider from "oidc-provider";
import { freePort } from "@fit/testing";

export interface IdpUser {
  email: string;
  emailVerified: boolean;
  name?: string;
}

/** What the token endpoint does: answer, fail with a 500, or never answer. */
type TokenMode = "ok" | "fail" | "hang";

export const startIdentityProvider = async ({ redirectUri }: { redirectUri: string }) => {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const users = new Map<string, IdpUser>();
  const client = { client_id: "fit-gateway", client_secret: "fit-gateway-secret-fit-gateway-secret" };
  const state = { tokenMode: "ok" as TokenMode, authorizeRequests: [] as URL[] };
  const provider = new Provider(issuer, {
    clients: [{ ...client, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
    // Required for every client, so a sign-in without PKCE fails here rather than passing unnoticed.
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-key-test-cookie-key"] },
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    findAccount: (_ctx, sub) => {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: () => ({ sub, email: user.email, email_verified: user.emailVerified, name: user.name ?? sub }) };
    },
  });
  provider.use(async (ctx, next) => {
    if (ctx.path === "/auth") state.authorizeRequests.push(new URL(ctx.href));
    if (ctx.path === "/token" && state.tokenMode === "fail") {
      ctx.status = 500;
      ctx.body = { error: "server_error" };
      return;
    }
    if (ctx.path === "/token" && state.tokenMode === "hang") return new Promise<void>(() => {});
    await next();
  });
  const interaction = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const accountId = new URL(req.url ?? "/", issuer).searchParams.get("account") ?? "";
    const { params } = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };
  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    client,
    state,
    addUser: (sub: string, user: IdpUser) => void users.set(sub, user),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type IdentityProvider = Awaited<ReturnType<typeof startIdentityProvider>>;
