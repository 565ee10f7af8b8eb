import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, PHOTO_FILE_LIMIT } from "@fit/contracts";
import { BODY_LIMIT } from "@fit/service-kit";
import { operationCaller } from "../mcp/call-operation.ts";

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

interface McpRouteOptions {
  version: string;
  /** The RFC 9728 document's URL, named in every 401. */
  resourceMetadataUrl: string;
  trustedOrigins: readonly string[];
  /** The /api hooks that authenticate (bearer only here) and rate-limit per account. */
  authenticate: Hook[];
}

/**
 * The agent-protocol endpoint: MCP over Streamable HTTP, stateless (a new server and transport per request; no
 * session id is issued, so none can stand in for a token). A browser page from an untrusted origin is refused
 * before anything else (DNS-rebinding and cross-site defence); then a bearer token is required.
 */
export const mcpRoutes = async (app: FastifyInstance, { version, resourceMetadataUrl, trustedOrigins, authenticate }: McpRouteOptions) => {
  app.addHook("onRequest", async (request) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !trustedOrigins.includes(origin)) throw new AppError("forbidden", "origin not allowed");
  });
  // Cookies never authenticate here: only the Authorization header reaches the resolver.
  app.addHook("onRequest", async (request) => {
    delete request.headers.cookie;
  });
  for (const hook of authenticate) app.addHook("onRequest", hook);
  // Where to get a token (RFC 9728 §5.1); error="invalid_token" when one was sent (RFC 6750 §3.1).
  app.addHook("onSend", async (request, reply) => {
    if (reply.statusCode !== 401) return;
    const error = request.headers.authorization ? 'error="invalid_token", ' : "";
    void reply.header("www-authenticate", `Bearer ${error}resource_metadata="${resourceMetadataUrl}"`);
  });

  // The agent protocol's SDK is loaded by the first agent request: a gateway no agent talks to never holds it.
  const sdk = async () => {
    const [{ StreamableHTTPServerTransport }, { createMcpServer, connectMcpServer }] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
      import("../mcp/tools.ts"),
    ]);
    return { StreamableHTTPServerTransport, createMcpServer, connectMcpServer };
  };
  // A photo tool's call carries the picture in base64 (4 bytes for 3), beside an ordinary call's JSON.
  app.post("/mcp", { bodyLimit: Math.ceil(PHOTO_FILE_LIMIT / 3) * 4 + BODY_LIMIT }, async (request, reply) => {
    const { StreamableHTTPServerTransport, createMcpServer, connectMcpServer } = await sdk();
    const server = createMcpServer({ version, call: operationCaller(app, request.headers.authorization ?? "") });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    await connectMcpServer(server, transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // No server-initiated stream and no session to end in a stateless server.
  const notOffered = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(405).header("allow", "POST").send({ error: "use POST: this server is stateless" });
  app.get("/mcp", notOffered);
  app.delete("/mcp", notOffered);
};
