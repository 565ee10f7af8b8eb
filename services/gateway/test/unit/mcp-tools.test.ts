// The agent-protocol server as a client sees it: what it advertises, its tool schemas, and how it answers a
// malformed call (docs/security.md section 26). In memory, with the SDK's own client; the operation behind a
// tool is a stub that records what reached it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectMcpServer, createMcpServer } from "../../src/mcp/tools.ts";

const connected = async () => {
  const calls: unknown[] = [];
  const server = createMcpServer({ version: "test", call: async (_op, args) => (calls.push(args), { status: 200, body: {} }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectMcpServer(server, serverSide);
  return { server, clientSide, calls };
};

/** One raw JSON-RPC request and its answer, as a client that does not use the SDK would send it. */
const raw = async (transport: InMemoryTransport, message: JSONRPCMessage) => {
  const answer = new Promise<JSONRPCMessage>((resolve) => {
    transport.onmessage = resolve;
  });
  await transport.start();
  await transport.send(message);
  return answer;
};

const walk = (node: unknown, visit: (key: string, value: unknown) => void): void => {
  if (typeof node !== "object" || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    visit(key, value);
    walk(value, visit);
  }
};

describe("the MCP server's tools", () => {
  it("advertises no tools.listChanged: the tool list is fixed for a server's life", async () => {
    const { clientSide } = await connected();
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    expect(client.getServerCapabilities()?.tools?.listChanged).not.toBe(true);
    await client.close();
  });

  it("describes every input in JSON Schema 2020-12, with examples rather than example", async () => {
    const { clientSide } = await connected();
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      expect(tool.inputSchema.$schema, tool.name).toBe("https://json-schema.org/draft/2020-12/schema");
      if (tool.outputSchema) expect(tool.outputSchema.$schema, tool.name).toBe("https://json-schema.org/draft/2020-12/schema");
      walk(tool.inputSchema, (key) => expect(key, `${tool.name} uses a draft keyword`).not.toBe("example"));
      walk(tool.outputSchema, (key) => expect(key, `${tool.name} uses a draft keyword`).not.toBe("example"));
    }
    const logFood = tools.find((tool) => tool.name === "logFoodItem")!;
    expect(JSON.stringify(logFood.inputSchema)).toContain('"examples":["2026-11-22"]');
    await client.close();
  });

  it("answers arguments that are not an object with invalid params (-32602) and a short message, calling nothing", async () => {
    const { clientSide, calls } = await connected();
    await raw(clientSide, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    for (const [id, args] of [[1, [1, 2]], [2, "weightKg=80"], [3, 42]] as const) {
      const answer = await raw(clientSide, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "logWeight", arguments: args } });
      const error = (answer as { error?: { code: number; message: string } }).error;
      expect(error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(error?.message.length).toBeLessThan(120);
      expect(error?.message).not.toContain("invalid_type");
    }
    expect(calls).toEqual([]);
  });
});
