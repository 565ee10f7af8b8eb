// Agents over MCP with OAuth 2.1, end to end over real HTTP with real clients (oauth4webapi, the MCP SDK's
// Client): docs/security.md "Agent protocol (MCP) and OAuth 2.1".
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { authorizationRequest, connectAgent, discover, insecure, mcpClient, oauth, register } from "./support/oauth-agent.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const ALL = "weight:read weight:write dashboard:read offline_access";
const mcpPost = (token: string | undefined, headers: Record<string, string> = {}, path = "/mcp") =>
  fetch(`${system.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("an agent connecting with OAuth", () => {
  it("registers, signs in, consents, calls tools, refreshes with rotation, and is locked out once revoked", async () => {
    const agent = await connectAgent(system.url, ALL, { name: "<b>Evil</b> agent" });
    expect(agent.signInPage).toContain('name="email"');
    expect(agent.consentPage).toContain("&#60;b&#62;Evil&#60;/b&#62; agent");
    expect(agent.consentPage).not.toContain("<b>Evil</b>");
    expect(agent.consentPage).toContain("weight:write");
    expect(agent.tokens.scope?.split(" ").sort()).toEqual(ALL.split(" ").sort());

    const mcp = await mcpClient(system.url, agent.tokens.access_token);
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["logWeight", "getDashboard", "askCoach", "listWorkouts", "logFoodItem"]));
    expect(names).not.toContain("importWorkout");
    const hints = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    expect(hints("putTargets")).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints("logWeight")).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints("getDashboard")).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    const logged = await mcp.callTool({ name: "logWeight", arguments: { weightKg: 81.5, note: "from the agent" } });
    expect(logged.isError).toBeFalsy();
    const dashboard = await mcp.callTool({ name: "getDashboard", arguments: {} });
    expect((dashboard.structuredContent as { weight: { latestKg: number } }).weight.latestKg).toBe(81.5);
    await mcp.close();

    // The same token on the REST API, as the same account.
    const api = client(system.url, agent.tokens.access_token);
    expect((await api.get("/api/weight")).body.items[0].weightKg).toBe(81.5);

    // Refresh rotates: the new refresh token works, the old one is refused (and ends the family).
    const refreshed = await oauth.processRefreshTokenResponse(agent.as, agent.client,
      await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), agent.tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(agent.tokens.refresh_token);
    const replay = await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), agent.tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(agent.as, agent.client, replay)).rejects.toMatchObject({ error: "invalid_grant" });
    const successor = await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), refreshed.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(agent.as, agent.client, successor), "the replay ended the family").rejects.toMatchObject({ error: "invalid_grant" });

    // Revocation applies at the next request.
    expect((await client(system.url, refreshed.access_token).get("/api/dashboard")).status).toBe(200);
    const revoked = await oauth.revocationRequest(agent.as, agent.client, oauth.None(), refreshed.access_token, insecure);
    await oauth.processRevocationResponse(revoked);
    expect((await mcpPost(refreshed.access_token)).status).toBe(401);
    expect((await client(system.url, refreshed.access_token).get("/api/dashboard")).status).toBe(401);
  });
});

describe("the protected resource (docs/security.md items 1-8)", () => {
  it("answers 401 naming its metadata, which names the exact MCP URL and the authorization server", async () => {
    const response = await mcpPost(undefined);
    expect(response.status).toBe(401);
    const origin = new URL(system.url).origin;
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = await client(system.url).get("/.well-known/oauth-protected-resource/mcp");
    expect(metadata.body.resource).toBe(`${system.url}/mcp`);
    expect(metadata.body.authorization_servers).toEqual([origin]);
    expect(metadata.body.scopes_supported).not.toContain("keys");
    const as = await discover(system.url);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.scopes_supported).not.toContain("account");
  });

  it("refuses an authorization request without PKCE, with plain, or with another redirect URI", async () => {
    const as = await discover(system.url);
    const agent = await register(as);
    const { url } = await authorizationRequest(as, agent, "weight:read", `${system.url}/mcp`);
    const without = new URL(url);
    without.searchParams.delete("code_challenge");
    without.searchParams.delete("code_challenge_method");
    const plain = new URL(url);
    plain.searchParams.set("code_challenge_method", "plain");
    // Shown here, not redirected, before sign-in (test/agent-protocol.test.ts has the signed-in case).
    for (const refused of [without, plain]) {
      const response = await fetch(refused, { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
    }
    const elsewhere = new URL(url);
    elsewhere.searchParams.set("redirect_uri", "http://127.0.0.1:9/other");
    const response = await fetch(elsewhere, { redirect: "manual" });
    expect(response.headers.get("location") ?? "").not.toContain("127.0.0.1:9/other");
  });

  it("refuses a token in the query string, a forged token, a foreign Origin, and a session id without a token", async () => {
    const agent = await connectAgent(system.url, "dashboard:read");
    const token = agent.tokens.access_token;
    expect((await mcpPost(token)).status).toBe(200);
    expect((await mcpPost(undefined, {}, `/mcp?access_token=${token}`)).status).toBe(401);
    expect((await mcpPost(token, {}, `/mcp?access_token=${token}`)).status).toBe(401);
    expect((await client(system.url).get(`/api/dashboard?access_token=${token}`)).status).toBe(401);
    expect((await client(system.url, token).get(`/api/dashboard?date=2026-11-27&access%5Ftoken=${token}`)).status).toBe(401);
    expect((await client(system.url, token).get(`/api/no-such-route?access_token=${token}`)).status).toBe(401);
    const [header, payload] = token.split(".");
    const forged = await mcpPost(`${header}.${payload}.${"A".repeat(86)}`);
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // An opaque token (one asked for without `resource`) says how to get one this API takes.
    const opaque = await mcpPost("ZmFrZS1vcGFxdWUtdG9rZW4");
    expect(opaque.status).toBe(401);
    expect(((await opaque.json()) as { error: string }).error).toBe(
      `bearer token is neither an API key (fit_…) nor an access token for this API: an agent asks for one with resource=${system.url}/mcp (RFC 8707)`,
    );
    expect((await mcpPost(token, { origin: "https://evil.example" })).status).toBe(403);
    expect((await mcpPost(undefined, { "mcp-session-id": "a-session-of-someone-else" })).status).toBe(401);
  });

  it("answers a tool whose scope the token lacks with an error naming the scope, and never reaches keys or account", async () => {
    const agent = await connectAgent(system.url, "dashboard:read");
    const mcp = await mcpClient(system.url, agent.tokens.access_token);
    const refused = await mcp.callTool({ name: "logWeight", arguments: { weightKg: 70 } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("weight:write");
    expect((await mcp.callTool({ name: "getDashboard", arguments: {} })).isError).toBeFalsy();
    await mcp.close();
  });

  it("says not found for another account's weigh-in, through a tool as through REST", async () => {
    const other = await system.account();
    const theirs = await client(system.url, other.key).post("/api/weight", { weightKg: 90 });
    const agent = await connectAgent(system.url, ALL);
    const mcp = await mcpClient(system.url, agent.tokens.access_token);
    for (const name of ["editWeightNote", "deleteWeight"]) {
      const result = await mcp.callTool({ name, arguments: { id: theirs.body.id, note: "mine now" } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("404");
    }
    await mcp.close();
    expect((await client(system.url, other.key).get("/api/weight")).body.items[0]).toMatchObject({ weightKg: 90, note: null });
  });
});
