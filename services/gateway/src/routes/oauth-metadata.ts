import type { FastifyInstance } from "fastify";
import { oauthScopes, type ProtectedResourceMetadata } from "@fit/contracts";
import type { z } from "zod";

interface MetadataOptions {
  /** The plugin's RFC 8414 document (auth.api.getOAuthServerConfig). */
  authorizationServer: () => Promise<unknown>;
  issuer: string;
  mcpUrl: string;
}

/**
 * What the plugin's RFC 8414 document names but this server does not offer: introspection and the JWKS are not
 * mounted (only the gateway reads its access tokens), and back-channel logout is never sent (registration
 * refuses the URL it would go to: docs/security.md section 26). A client is told only what answers.
 */
const notOffered = ["introspection_endpoint", "introspection_endpoint_auth_methods_supported", "introspection_endpoint_auth_signing_alg_values_supported", "jwks_uri"];

const offeredOnly = (document: Record<string, unknown>) => ({
  ...Object.fromEntries(Object.entries(document).filter(([field]) => !notOffered.includes(field))),
  backchannel_logout_supported: false,
  backchannel_logout_session_supported: false,
});

/**
 * Discovery: where agents learn how /mcp is protected (RFC 9728) and how to get a token (RFC 8414). The scopes
 * include offline_access: the MCP SDK asks for exactly the resource's scopes_supported, and a refresh token is
 * issued only for offline_access.
 */
export const oauthMetadataRoutes = (app: FastifyInstance, { authorizationServer, issuer, mcpUrl }: MetadataOptions) => {
  const resource: z.infer<typeof ProtectedResourceMetadata> = {
    resource: mcpUrl,
    authorization_servers: [issuer],
    scopes_supported: [...oauthScopes],
    bearer_methods_supported: ["header"],
    resource_name: "Fitness tracker",
  };
  app.get("/.well-known/oauth-protected-resource/mcp", async () => resource);
  app.get("/.well-known/oauth-authorization-server", async () => offeredOnly((await authorizationServer()) as Record<string, unknown>));
};
