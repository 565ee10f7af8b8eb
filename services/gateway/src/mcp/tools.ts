// The agent-protocol tools: one per contract operation an agent may call, generated from the operations table
// (docs/decisions/0022-oauth-for-agents.md). A call goes through the REST route (callOperation), so scope
// checks, rate limits, validation and forwarding are REST's own.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { agentScopes, operationList, type Operation } from "@fit/contracts";

export interface OperationAnswer {
  status: number;
  body: unknown;
}

export type CallOperation = (op: Operation, args: Record<string, unknown>) => Promise<OperationAnswer>;

/**
 * What an agent can call: not a raw file upload (a tool takes JSON), not a granted-only scope (no OAuth token
 * holds one), not the scale ingest (a device's shared token, not an account's).
 */
const toolOperations = operationList.filter(
  (op) => !op.upload && agentScopes.includes(op.scope) && !op.path.startsWith("/api/ingest/"),
);

const shapeOf = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? schema.shape : {});

/** The operation's path parameters, query and body as one object (body fields win: askCoach's `date` is both). */
const toolInput = (op: Operation) => z.object({ ...shapeOf(op.params), ...shapeOf(op.query), ...shapeOf(op.body) });

const errorText = (status: number, body: unknown) => {
  const error = (body as { error?: unknown } | null)?.error;
  return `${status}: ${typeof error === "string" ? error : "request failed"}`;
};

const toResult = (op: Operation, { status, body }: OperationAnswer): CallToolResult => {
  if (status >= 400) return { isError: true, content: [{ type: "text", text: errorText(status, body) }] };
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    // Structured output only where the response is an object (the protocol's structuredContent must be one).
    ...(op.response instanceof z.ZodObject ? { structuredContent: body as Record<string, unknown> } : {}),
  };
};

/** A server for one request: the SDK's advice for stateless Streamable HTTP since 1.26. */
export function createMcpServer({ version, call }: { version: string; call: CallOperation }) {
  const server = new McpServer({ name: "fitness", version });
  for (const op of toolOperations) {
    server.registerTool(
      op.id,
      {
        title: op.summary,
        description: [op.summary + ".", op.description, `Needs the ${op.scope} scope.`].filter(Boolean).join(" "),
        inputSchema: toolInput(op),
        // A fresh object of the same fields: a schema with a registered id becomes a $ref, and a tool's output
        // schema must be an inline object.
        ...(op.response instanceof z.ZodObject ? { outputSchema: z.object(op.response.shape) } : {}),
        // A PUT replaces what was there (putTargets clears the fields it is not given), so it destroys too.
        annotations: {
          readOnlyHint: op.method === "GET",
          destructiveHint: op.method === "DELETE" || op.method === "PUT",
          idempotentHint: op.method !== "POST",
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>) => toResult(op, await call(op, args)),
    );
  }
  return server;
}
