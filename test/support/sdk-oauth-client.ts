// An MCP client as the SDK's own example client builds one: its default OAuthClientProvider flow (discovery from
// the 401, dynamic registration, PKCE, the scope it chooses itself) with everything kept in memory, the browser
// part done by approveInBrowser.
import { uniqueTag } from "@fit/testing";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { approveInBrowser } from "./oauth-agent.ts";

/** The SDK example client's registration (examples/client/simpleOAuthClient): no application_type. */
export const sdkExampleMetadata = (redirectUrl: string): OAuthClientMetadata => ({
  client_name: "Simple OAuth MCP Client",
  redirect_uris: [redirectUrl],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "client_secret_post",
});

export class MemoryOAuthProvider implements OAuthClientProvider {
  private information: OAuthClientInformationMixed | undefined;
  private stored: OAuthTokens | undefined;
  private verifier = "";
  authorizationUrl: URL | undefined;

  constructor(readonly redirectUrl: string, readonly clientMetadata: OAuthClientMetadata) {}

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const transportFor = (baseUrl: string, provider: OAuthClientProvider) => new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { authProvider: provider });

/**
 * The SDK's flow for a new account: connect → 401 → discovery, registration and the redirect → the person signs
 * in and allows → finishAuth(code) → connect again. Returns the connected client and the provider holding what
 * the SDK stored.
 */
export async function connectWithSdk(baseUrl: string, provider: MemoryOAuthProvider, email = `${uniqueTag("sdk")}@example.com`) {
  const first = transportFor(baseUrl, provider);
  await new Client({ name: "sdk-agent", version: "1.0.0" }).connect(first).then(
    () => { throw new Error("connected without authorization"); },
    (error: unknown) => { if (!(error instanceof UnauthorizedError)) throw error; },
  );
  if (!provider.authorizationUrl) throw new Error("the SDK did not start an authorization");
  const { callback, consentPage } = await approveInBrowser(baseUrl, provider.authorizationUrl.toString(), email);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`the consent ended without a code: ${callback.toString()}`);
  await first.finishAuth(code);
  const client = new Client({ name: "sdk-agent", version: "1.0.0" });
  await client.connect(transportFor(baseUrl, provider));
  return { client, consentPage };
}
