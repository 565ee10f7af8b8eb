import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import {
  AgentRequest, authRoutes, buildOpenApiDocument, FoodItemCreate, isCalendarDate, isDayTooFarAhead, isTooFarAhead,
  operationList, refuseIfTooFarAhead, toOpenApiPath, WeightCreate, WeightEdit, WorkoutDescribe,
} from "../../src/index.ts";

describe("calendar days", () => {
  it.each(["2026-02-28", "2024-02-29", "2026-12-31", "0001-01-01", "0099-12-28", "0004-02-29", "2000-02-29", "2026-04-30", "9999-12-31"])("accepts %s", (day) =>
    expect(isCalendarDate(day)).toBe(true),
  );
  it.each(["2026-02-30", "2025-02-29", "today", "2026-1-1", "2026-13-01", "", "0000-06-01", "0100-02-29", "1900-02-29", "2026-04-31", "2026-00-10", "2026-06-00", "2026-01-32"])("refuses %s", (day) =>
    expect(isCalendarDate(day)).toBe(false),
  );
});

describe("a logged time ahead of the clock", () => {
  const now = Date.parse("2026-11-27T23:30:00Z");
  const DAY_MS = 86_400_000;

  it("is refused past a day of slack, to the millisecond", () => {
    expect(isTooFarAhead(now + DAY_MS, now)).toBe(false);
    expect(isTooFarAhead(now + DAY_MS + 1, now)).toBe(true);
    expect(() => refuseIfTooFarAhead(now + DAY_MS + 1, "the file's start time", now)).toThrow(
      "the file's start time must not be more than a day in the future (2026-11-28T23:30:00.001Z)",
    );
  });

  it("is a day after UTC's tomorrow, whatever the hour", () => {
    for (const at of [Date.parse("2026-11-27T00:00:00Z"), now]) {
      expect(isDayTooFarAhead("2026-11-28", at)).toBe(false);
      expect(isDayTooFarAhead("2026-11-29", at)).toBe(true);
    }
  });

  it("is refused by the schemas in the field's own words", () => {
    const result = WeightCreate.safeParse({ weightKg: 80, ts: Date.now() + 2 * DAY_MS });
    expect(result.error?.issues[0]).toMatchObject({ path: ["ts"], message: "must not be more than a day in the future" });
  });
});

describe("weight reading input", () => {
  it.each([8.99, 320.01, -1])("refuses weightKg %d naming the 9 to 320 kg bound", (weightKg) => {
    const result = WeightCreate.safeParse({ weightKg });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("weightKg must be between 9 and 320 kg");
  });

  it.each([9, 320])("accepts weightKg %d at the bound", (weightKg) => {
    expect(WeightCreate.parse({ weightKg }).weightKg).toBe(weightKg);
  });

  it("truncates a long note to 500 characters instead of refusing it", () => {
    expect(WeightCreate.parse({ weightKg: 80, note: "x".repeat(501) }).note).toHaveLength(500);
  });

  it("stores a blank note as null and keeps null to clear on edit", () => {
    expect(WeightCreate.parse({ weightKg: 80, note: "   " }).note).toBeNull();
    expect(WeightEdit.parse({ note: null }).note).toBeNull();
  });

  it("ignores unknown fields such as accountId", () => {
    expect(WeightCreate.parse({ weightKg: 80, accountId: "x", id: "y" })).toEqual({ weightKg: 80 });
  });
});

describe("other inputs", () => {
  it("refuses a system role and more than 20 messages in a coach request", () => {
    expect(AgentRequest.safeParse({ messages: [{ role: "system", content: "hi" }] }).success).toBe(false);
    const many = Array.from({ length: 21 }, () => ({ role: "user", content: "hi" }));
    expect(AgentRequest.safeParse({ messages: many }).success).toBe(false);
  });

  it("defaults the workout timezone offset to 0 and bounds it to ±840 minutes", () => {
    expect(WorkoutDescribe.parse({ text: "ran 5k" }).tz).toBe(0);
    expect(WorkoutDescribe.safeParse({ text: "ran 5k", tz: 841 }).success).toBe(false);
  });

  it("refuses negative and absurd calories on a food item", () => {
    const base = { date: "2026-11-22", name: "apple", proteinG: 0 };
    expect(FoodItemCreate.safeParse({ ...base, kcal: -1 }).success).toBe(false);
    expect(FoodItemCreate.safeParse({ ...base, kcal: 50_000 }).success).toBe(false);
    expect(FoodItemCreate.safeParse({ ...base, kcal: 95 }).success).toBe(true);
  });
});

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument({ version: "1.2.3" });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.2.3");
  });

  it("describes every sign-in route the gateway mounts", () => {
    for (const { method, path } of authRoutes) {
      expect(document.paths?.[toOpenApiPath(path)]?.[method.toLowerCase() as "get"], `${method} ${path}`).toBeDefined();
    }
  });

  it("describes every contract operation with its error envelope", () => {
    for (const op of operationList) {
      const entry = document.paths?.[toOpenApiPath(op.path)]?.[op.method.toLowerCase() as "get"];
      expect(entry?.operationId, `${op.method} ${op.path}`).toBe(op.id);
      expect(Object.keys(entry?.responses ?? {})).toEqual(expect.arrayContaining([String(op.status ?? 200), "401", ...op.errors.map(String)]));
    }
  });
});
