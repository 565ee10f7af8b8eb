import type { FastifyInstance } from "fastify";
import { agentScopes, type ProtectedResourceMetadata } from "@fit/contracts";
import type { z } from "zod";

interface MetadataOptions {
  /** The plugin's RFC 8414 document (auth.api.getOAuthServerConfig). */
  authorizationServer: () => Promise<unknown>;
  issuer: string;
  mcpUrl: string;
}

/** Discovery: where agents learn how /mcp is protected (RFC 9728) and how to get a token (RFC 8414). */
export const oauthMetadataRoutes = (app: FastifyInstance, { authorizationServer, issuer, mcpUrl }: MetadataOptions) => {
  const resource: z.infer<typeof ProtectedResourceMetadata> = {
    resource: mcpUrl,
    authorization_servers: [issuer],
    scopes_supported: [...agentScopes],
    bearer_methods_supported: ["header"],
    resource_name: "Fitness tracker",
  };
  app.get("/.well-known/oauth-protected-resource/mcp", async () => resource);
  app.get("/.well-known/oauth-authorization-server", async () => authorizationServer());
};
