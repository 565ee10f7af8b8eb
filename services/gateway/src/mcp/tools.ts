// The agent-protocol tools: one per contract operation an agent may call, generated from the operations table
// (docs/decisions/0022-oauth-for-agents.md). A call goes through the REST route (callOperation), so scope
// checks, rate limits, validation and forwarding are REST's own.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema, ErrorCode, isJSONRPCRequest, ListToolsRequestSchema, McpError,
  type CallToolResult, type JSONRPCMessage, type RequestId, type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { agentScopes, operationList, PHOTO_MEDIA_TYPES, type Operation } from "@fit/contracts";
import { takesPhoto } from "./call-operation.ts";

export interface OperationAnswer {
  status: number;
  body: unknown;
}

export type CallOperation = (op: Operation, args: Record<string, unknown>) => Promise<OperationAnswer>;

/**
 * What an agent can call: not a raw file upload other than a photo (a tool takes JSON, and an activity file or an
 * import is a person's upload), not a granted-only scope (no OAuth token holds one), not the scale ingest (a
 * device's shared token, not an account's).
 */
const toolOperations = operationList.filter(
  (op) => (!op.upload || takesPhoto(op)) && agentScopes.includes(op.scope) && !op.path.startsWith("/api/ingest/"),
);

const shapeOf = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? schema.shape : {});

const photoShape = {
  image: z.base64({ error: "image must be the photo's bytes in base64" }).meta({ description: "The photo (JPEG, PNG or WebP, up to 8 MiB) in base64." }),
  mediaType: z.enum(PHOTO_MEDIA_TYPES).default("image/jpeg").meta({ description: "The photo's type; its content is checked whatever this says." }),
};

/** The operation's path parameters, query and body as one object (body fields win: askCoach's `date` is both). */
const toolInput = (op: Operation) =>
  z.object({ ...shapeOf(op.params), ...shapeOf(op.query), ...shapeOf(op.body), ...(takesPhoto(op) ? photoShape : {}) });

/** The envelope's error, and its detail when it has one (a photo's 422 says there what was read). */
const errorText = (status: number, body: unknown) => {
  const { error, detail } = (body ?? {}) as { error?: unknown; detail?: unknown };
  return `${status}: ${typeof error === "string" ? error : "request failed"}${typeof detail === "string" ? `\n${detail}` : ""}`;
};

const toResult = (op: Operation, { status, body }: OperationAnswer): CallToolResult => {
  if (status >= 400) return { isError: true, content: [{ type: "text", text: errorText(status, body) }] };
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    // Structured output only where the response is an object (the protocol's structuredContent must be one).
    ...(op.response instanceof z.ZodObject ? { structuredContent: body as Record<string, unknown> } : {}),
  };
};

const dialect = { target: "draft-2020-12" } as const;

/**
 * The tools as clients list them, in JSON Schema 2020-12 (the protocol's default dialect since 2025-11-25; the
 * SDK's McpServer writes draft-07, hence the low-level Server here). The output schema is a fresh object of the
 * response's fields: a schema with a registered id would become a $ref, and a tool's output schema must be an
 * inline object.
 */
const tools = new Map(toolOperations.map((op) => {
  const input = toolInput(op);
  const definition: Tool = {
    name: op.id,
    title: op.summary,
    description: [op.summary + ".", op.description, `Needs the ${op.scope} scope.`].filter(Boolean).join(" "),
    inputSchema: z.toJSONSchema(input, { ...dialect, io: "input" }) as Tool["inputSchema"],
    ...(op.response instanceof z.ZodObject ? { outputSchema: z.toJSONSchema(z.object(op.response.shape), { ...dialect, io: "output" }) as Tool["outputSchema"] } : {}),
    // A PUT replaces what was there (putTargets clears the fields it is not given), so it destroys too.
    annotations: {
      readOnlyHint: op.method === "GET",
      destructiveHint: op.method === "DELETE" || op.method === "PUT",
      idempotentHint: op.method !== "POST",
      openWorldHint: false,
    },
  };
  return [op.id, { op, input, definition }] as const;
}));

const CallParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() });

/**
 * A tools/call whose params are not {name, arguments?: object} is invalid params (JSON-RPC -32602) with a short
 * message; the SDK would answer -32603 with its parser's whole report.
 */
const malformedCall = (message: JSONRPCMessage): JSONRPCMessage | undefined => {
  if (!isJSONRPCRequest(message) || message.method !== "tools/call" || CallParams.safeParse(message.params).success) return undefined;
  return { jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: "tools/call needs params.name, a string, and params.arguments, an object" } };
};

/** A server for one request: the SDK's advice for stateless Streamable HTTP since 1.26. */
export function createMcpServer({ version, call }: { version: string; call: CallOperation }) {
  // No listChanged: the tool list is fixed for the server's life.
  const server = new Server({ name: "fitness", version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = tools.get(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${params.name}`);
    // Arguments that do not fit the schema are a tool error the model can read and correct (not a protocol error).
    const args = tool.input.safeParse(params.arguments ?? {});
    if (!args.success) return { isError: true, content: [{ type: "text", text: `invalid arguments: ${z.prettifyError(args.error)}` }] };
    return toResult(tool.op, await call(tool.op, args.data));
  });
  return server;
}

/** Connects the server, answering a malformed tools/call before the SDK parses it. */
export async function connectMcpServer(server: Server, transport: Transport) {
  await server.connect(transport);
  const handle = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = malformedCall(message);
    if (!refusal) return handle?.(message, extra);
    void transport.send(refusal, { relatedRequestId: (message as { id: RequestId }).id });
  };
}
