// An agent going through the OAuth 2.1 flow against the gateway as a desktop client would: discovery, dynamic
// registration and the code flow with PKCE through oauth4webapi; the browser part (sign-in page, magic link,
// consent page) by hand over HTTP, the magic link read from what the gateway prints without SMTP.
import * as oauth from "oauth4webapi";
import { uniqueTag } from "@fit/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { printedLink } from "./sign-in.ts";

const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** A browser: follows nothing by itself, keeps the session cookie. */
const browser = (baseUrl: string) => {
  let cookie = "";
  const origin = new URL(baseUrl).origin;
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, baseUrl), { ...init, redirect: "manual", headers: { accept: "text/html", ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
    const set = response.headers.getSetCookie().find((c) => c.includes("session_token="));
    if (set) cookie = set.split(";")[0]!;
    return response;
  };
  const submit = (url: string, fields: Record<string, string>, from = origin) =>
    go(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: from }, body: new URLSearchParams(fields).toString() });
  return { go, submit, cookie: () => cookie };
};

const queryOf = (location: string) => location.split("?")[1] ?? "";

/** Where a redirect points, or a failure saying what came instead. */
const locationOf = async (response: Response, step: string) => {
  const location = response.headers.get("location");
  if (!location) throw new Error(`${step}: expected a redirect, got ${response.status} ${await response.text()}`);
  return location;
};

export async function discover(baseUrl: string) {
  const issuer = new URL(new URL(baseUrl).origin);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
}

export async function register(as: oauth.AuthorizationServer, name = "Test agent") {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT_URI], application_type: "native", token_endpoint_auth_method: "none", client_name: name, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] },
    insecure,
  );
  return (await oauth.processDynamicClientRegistrationResponse(response)) as oauth.Client;
}

/** The authorization request URL with a fresh PKCE pair and state. */
export async function authorizationRequest(as: oauth.AuthorizationServer, client: oauth.Client, scope: string, resource: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT_URI, scope, state, resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
  }).toString();
  return { url, verifier, state };
}

/**
 * The browser's part of an authorization request for a new account: authorize → sign-in page → magic link →
 * back to authorize → consent page → allow. Returns where the server sent the browser back to the client (the
 * callback with the code) and the pages seen on the way.
 */
export async function approveInBrowser(baseUrl: string, authorizationUrl: string, email: string) {
  const web = browser(baseUrl);
  const signInLocation = await locationOf(await web.go(authorizationUrl), "authorize");
  const signInPage = await web.go(signInLocation);
  const link = await printedLink(email, async () => {
    const sent = await web.submit("/oauth/sign-in", { email, oauth_query: queryOf(signInLocation) });
    if (sent.status !== 200) throw new Error(`sign-in page answered ${sent.status}: ${await sent.text()}`);
  });
  const signedIn = await locationOf(await web.go(link), "magic link");
  const consentLocation = await locationOf(await web.go(signedIn), "authorize, signed in");
  const consentPage = await (await web.go(consentLocation)).text();
  const decided = await web.submit("/oauth/consent", { decision: "allow", oauth_query: queryOf(consentLocation) });
  return { callback: new URL(await locationOf(decided, "consent")), signInPage: await signInPage.text(), consentPage, web };
}

/** The whole flow for a new account, through to the tokens. */
export async function connectAgent(baseUrl: string, scope: string, { email = `${uniqueTag("agent")}@example.com`, name = "Test agent" } = {}) {
  const as = await discover(baseUrl);
  const client = await register(as, name);
  const resource = `${baseUrl}/mcp`;
  const { url, verifier, state } = await authorizationRequest(as, client, scope, resource);
  const { callback, signInPage, consentPage, web } = await approveInBrowser(baseUrl, url.toString(), email);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as, client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, { ...insecure, additionalParameters: { resource } }),
  );
  return { as, client, tokens, email, resource, signInPage, consentPage, web };
}

/** The MCP SDK's own client over Streamable HTTP, with the access token. */
export async function mcpClient(baseUrl: string, accessToken: string) {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }));
  return client;
}

export { insecure, oauth };
