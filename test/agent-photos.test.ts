// Photo tools over MCP (docs/decisions/0085-photo-previews-saved-through-create-routes.md): the picture as base64,
// sent on to the photo routes as their raw body, with the routes' own bounds and refusals.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { client } from "./support/http.ts";
import { connectAgent, mcpClient } from "./support/oauth-agent.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

describe("photo tools for agents", () => {
  it("logs a console photo and reads a label sent as base64, and says what was read when it cannot log", async () => {
    const agent = await connectAgent(system.url, "workouts:read workouts:write nutrition:read nutrition:write");
    const mcp = await mcpClient(system.url, agent.tokens.access_token);
    const { tools } = await mcp.listTools();
    const photoTool = tools.find((tool) => tool.name === "logWorkoutPhoto");
    expect(photoTool?.inputSchema.required).toContain("image");
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["logFoodPhoto", "previewWorkoutPhoto", "previewFoodPhoto", "createWorkout"]));
    expect(tools.map((tool) => tool.name)).not.toContain("importWorkout");

    const console = await consolePhoto({ kind: "treadmill", durationS: 1812, distanceKm: 5.02, kcal: 320, avgHr: 145 }, { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 21 });
    const logged = await mcp.callTool({ name: "logWorkoutPhoto", arguments: { image: console.toString("base64"), text: "treadmill after work" } });
    expect(logged.isError).toBeFalsy();
    expect(logged.structuredContent).toMatchObject({ source: "manual", durationS: 1812, distanceM: 5020, description: "treadmill after work", read: { source: "ocr" } });
    expect((await client(system.url, agent.tokens.access_token).get("/api/workouts")).body.items).toHaveLength(1);

    const label = await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 22 });
    const previewed = await mcp.callTool({ name: "previewFoodPhoto", arguments: { image: label.toString("base64"), grams: 40 } });
    expect(previewed.structuredContent).toMatchObject({ items: [{ kcal: 100, proteinG: 3.2, source: "ocr" }] });
    const noAmount = await mcp.callTool({ name: "logFoodPhoto", arguments: { image: label.toString("base64"), mediaType: "image/jpeg", meal: "lunch" } });
    expect(noAmount.isError).toBe(true);
    expect(JSON.stringify(noAmount.content)).toMatch(/422: .*grams eaten.*read: .*1046 kJ/);
    const notBase64 = await mcp.callTool({ name: "logFoodPhoto", arguments: { image: "not base64!", grams: 40 } });
    expect(JSON.stringify(notBase64.content)).toContain("image must be the photo's bytes in base64");
    await mcp.close();
  });
});
