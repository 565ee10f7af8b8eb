// The OAuth 2.1 / MCP protocol as outside clients meet it: the MCP SDK's own OAuthClientProvider flow,
// RFC 8252 loopback redirects, client URLs the server would fetch, and the protocol's smaller rules (RFC 7009,
// RFC 7636, code replay, errors before sign-in, what the metadata promises): docs/security.md section 26.
import { createServer, type Server } from "node:net";
import { hostname } from "node:os";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { uniqueTag } from "@fit/testing";
import { client } from "./support/http.ts";
import { approveInBrowser, authorizationRequest, connectAgent, discover, insecure, mcpClient, oauth, register } from "./support/oauth-agent.ts";
import { signIn } from "./support/sign-in.ts";
import { MemoryOAuthProvider, connectWithSdk, sdkExampleMetadata } from "./support/sdk-oauth-client.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  // Many registrations and sign-ins from one address: the sign-in budget is not what is under test here.
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { SIGN_IN_LIMIT_PER_ADDRESS: "1000" } });
});
afterAll(() => system?.stop());

const registration = (metadata: Record<string, unknown>) =>
  fetch(`${system.url}/api/auth/oauth2/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) });

const publicClient = (redirectUris: string[]) => ({
  client_name: "Loopback agent", redirect_uris: redirectUris, token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"], response_types: ["code"],
});

/** A TCP listener that counts the connections made to it. */
const listener = async () => {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  return { port: (server.address() as { port: number }).port, connections: () => connections, close: () => new Promise((resolve) => server.close(resolve)) };
};

describe("an MCP SDK client with its default OAuth flow", () => {
  it("registers like the SDK's example client (loopback redirect, no application_type), keeps a refresh token, and refreshes", async () => {
    const redirectUrl = "http://localhost:8090/callback";
    const provider = new MemoryOAuthProvider(redirectUrl, sdkExampleMetadata(redirectUrl));
    const { client: mcp } = await connectWithSdk(system.url, provider);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toContain("getDashboard");
    await mcp.close();

    const first = provider.tokens()!;
    expect(first.refresh_token, "the SDK asked for the advertised scopes, offline_access among them").toBeTruthy();
    expect(first.scope?.split(" ")).toContain("offline_access");

    // With a refresh token stored, the SDK's auth() refreshes instead of sending the person to the browser again.
    expect(await auth(provider, { serverUrl: `${system.url}/mcp` })).toBe("AUTHORIZED");
    const second = provider.tokens()!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const again = await mcpClient(system.url, second.access_token);
    expect((await again.callTool({ name: "getDashboard", arguments: {} })).isError).toBeFalsy();
    await again.close();
  });

  it("advertises offline_access where the SDK reads its scopes (RFC 9728 metadata)", async () => {
    const metadata = await client(system.url).get("/.well-known/oauth-protected-resource/mcp");
    expect(metadata.body.scopes_supported).toContain("offline_access");
  });
});

describe("loopback redirect URIs (RFC 8252)", () => {
  it("accepts 127.0.0.1, [::1] and localhost for a client that does not say it is native, and any port at authorization", async () => {
    for (const uri of ["http://127.0.0.1:33418/cb", "http://[::1]:33418/cb", "http://localhost/cb"]) {
      const response = await registration(publicClient([uri]));
      expect(response.status, `${uri}: ${await response.clone().text()}`).toBe(201);
    }
    const as = await discover(system.url);
    const registered = (await (await registration(publicClient(["http://127.0.0.1:33418/cb"]))).json()) as oauth.Client;
    const { url } = await authorizationRequest(as, registered, "weight:read", `${system.url}/mcp`);
    url.searchParams.set("redirect_uri", "http://127.0.0.1:50123/cb");
    const cookie = await signIn(system.url, `${uniqueTag("port")}@example.com`);
    const answer = await fetch(url, { redirect: "manual", headers: { cookie, accept: "text/html" } });
    expect(new URL(answer.headers.get("location")!, system.url).pathname).toBe("/oauth/consent");
  });

  it("refuses a loopback redirect for a client that says it is a web app, with a message that says why", async () => {
    const response = await registration({ ...publicClient(["http://127.0.0.1:9/cb"]), application_type: "web" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_redirect_uri");
    expect(body.error_description).not.toContain("non-loopback");
    expect(body.error_description).toContain("native");
  });
});

describe("client URLs the server would fetch", () => {
  it("refuses them at registration, and signing out makes no outbound request", async () => {
    const probe = await listener();
    try {
      // A name that passes a syntactic check but resolves to this machine.
      const target = `https://${hostname()}:${probe.port}/logout`;
      for (const field of ["backchannel_logout_uri", "jwks_uri"]) {
        const response = await registration({ ...publicClient(["http://127.0.0.1:9/cb"]), application_type: "native", [field]: target });
        expect(response.status, field).toBe(400);
        const body = (await response.json()) as { error: string; error_description: string };
        expect(body).toMatchObject({ error: "invalid_client_metadata" });
        expect(body.error_description).toContain(field);
      }
      const agent = await connectAgent(system.url, "dashboard:read offline_access");
      const started = Date.now();
      const signedOut = await agent.web.go("/api/auth/sign-out", { method: "POST", headers: { origin: new URL(system.url).origin, "content-type": "application/json" }, body: "{}" });
      expect(signedOut.status).toBe(200);
      // The plugin waited up to 5 s for each client's logout endpoint.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(probe.connections()).toBe(0);
    } finally {
      await probe.close();
    }
  });

  it("advertises no back-channel logout, introspection or JWKS it does not answer", async () => {
    const metadata = (await client(system.url).get("/.well-known/oauth-authorization-server")).body as Record<string, unknown>;
    expect(metadata.backchannel_logout_supported).not.toBe(true);
    for (const field of ["introspection_endpoint", "jwks_uri"]) {
      const url = metadata[field];
      if (typeof url === "string") expect((await fetch(url)).status, field).toBeLessThan(400);
    }
  });
});

describe("the token and revocation endpoints", () => {
  it("answers revocation of an unknown or foreign token with 200 (RFC 7009 section 2.2)", async () => {
    const agent = await connectAgent(system.url, "dashboard:read");
    const [header, payload] = agent.tokens.access_token.split(".");
    for (const token of ["not-a-token-we-issued", `${header}.${payload}.${"A".repeat(86)}`]) {
      const response = await oauth.revocationRequest(agent.as, agent.client, oauth.None(), token, insecure);
      expect(response.status, token).toBe(200);
    }
  });

  it("answers a wrong code_verifier with 400 invalid_grant (RFC 7636 section 4.6)", async () => {
    const as = await discover(system.url);
    const agent = await register(as);
    const resource = `${system.url}/mcp`;
    const { url, state } = await authorizationRequest(as, agent, "dashboard:read", resource);
    const { callback } = await approveInBrowser(system.url, url.toString(), `${uniqueTag("pkce")}@example.com`);
    const params = oauth.validateAuthResponse(as, agent, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, agent, oauth.None(), params, "http://127.0.0.1:9/callback", oauth.generateRandomCodeVerifier(), { ...insecure, additionalParameters: { resource } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("revokes what a code issued when the code is used again", async () => {
    const as = await discover(system.url);
    const agent = await register(as);
    const resource = `${system.url}/mcp`;
    const { url, verifier, state } = await authorizationRequest(as, agent, "dashboard:read offline_access", resource);
    const { callback } = await approveInBrowser(system.url, url.toString(), `${uniqueTag("replay")}@example.com`);
    const params = oauth.validateAuthResponse(as, agent, callback, state);
    const exchange = () => oauth.authorizationCodeGrantRequest(as, agent, oauth.None(), params, "http://127.0.0.1:9/callback", verifier, { ...insecure, additionalParameters: { resource } });
    const tokens = await oauth.processAuthorizationCodeResponse(as, agent, await exchange());
    expect((await client(system.url, tokens.access_token).get("/api/dashboard")).status).toBe(200);
    const replay = await exchange();
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await client(system.url, tokens.access_token).get("/api/dashboard")).status).toBe(401);
    const refresh = await oauth.refreshTokenGrantRequest(as, agent, oauth.None(), tokens.refresh_token!, insecure);
    expect(refresh.status).toBe(400);
  });
});

describe("the authorization request before and after sign-in", () => {
  it("shows an error itself, never redirecting to the client, until the person has signed in", async () => {
    const as = await discover(system.url);
    const agent = await register(as);
    const { url } = await authorizationRequest(as, agent, "weight:read", `${system.url}/mcp`);
    const plain = new URL(url);
    plain.searchParams.set("code_challenge_method", "plain");
    const unknownScope = new URL(url);
    unknownScope.searchParams.set("scope", "weight:read no-such-scope");
    for (const refused of [plain, unknownScope]) {
      const response = await fetch(refused, { redirect: "manual", headers: { accept: "text/html" } });
      expect(response.status, refused.search).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
    // Signed in, the client hears of its mistake (RFC 6749 section 4.1.2.1).
    const cookie = await signIn(system.url, `${uniqueTag("err")}@example.com`);
    const signedIn = await fetch(plain, { redirect: "manual", headers: { cookie, accept: "text/html" } });
    expect(signedIn.status).toBe(302);
    const location = new URL(signedIn.headers.get("location")!);
    expect(location.origin + location.pathname).toBe("http://127.0.0.1:9/callback");
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });

  it("shows on the consent page where the code will go and that the client registered itself", async () => {
    const redirectUrl = "http://localhost:8091/callback";
    const provider = new MemoryOAuthProvider(redirectUrl, { ...sdkExampleMetadata(redirectUrl), client_name: "<i>Helper</i>" });
    const { client: mcp, consentPage } = await connectWithSdk(system.url, provider);
    await mcp.close();
    expect(consentPage).toContain("localhost:8091");
    expect(consentPage).toContain("registered itself");
    expect(consentPage).toContain("&#60;i&#62;Helper&#60;/i&#62;");
  });
});

describe("every HTML page the gateway serves", () => {
  it("forbids framing and sniffing: its own pages, better-auth's error page and the web app", async () => {
    for (const path of ["/", "/api/auth/error?error=state_mismatch", "/oauth/sign-in?x=1"]) {
      const response = await fetch(`${system.url}${path}`, { headers: { accept: "text/html" } });
      expect(response.headers.get("content-type"), path).toContain("text/html");
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});
