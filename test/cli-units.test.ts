// `fit` in pounds, stones and inches when the profile says so, as the compiled binary against the whole platform:
// a bare number is the profile's unit, a typed unit wins, the API keeps kg and cm (docs/decisions/0071-units-are-a-client-concern.md).
import { describe, expect, it } from "vitest";
import { cliPlatform } from "./support/cli.ts";

const platform = cliPlatform("units");

const { person } = platform;

describe("fit with an imperial profile", () => {
  it("sets the profile, reads a bare weight as pounds and a typed unit as typed, and shows pounds; --json stays in kg", async () => {
    const { fit, json } = await person();
    const set = await fit("profile", "set", "--units", "imperial", "--height", "5ft 11in", "--tz", "Europe/London");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/│ height\s+│ 71\.0 in\s+│/);
    expect(await json("profile", "show")).toMatchObject({ units: "imperial", heightCm: 180.34, timeZone: "Europe/London", firstDayOfWeek: "monday" });

    const added = await fit("weight", "add", "180.0", "--at", "2026-11-20T07:00:00Z");
    expect(added.stdout).toMatch(/^Logged 180\.0 lb \(id [0-9a-f-]{36}\)\n$/);
    await fit("weight", "add", "81.4kg", "--at", "2026-11-21T07:00:00Z");
    expect((await json("weight", "list")).items.map((r: { weightKg: number }) => r.weightKg)).toEqual([81.4, 81.65]);
    const table = (await fit("weight", "list")).stdout;
    expect(table).toMatch(/│ id\s+│ when\s+│ lb\s+│/);
    expect(table).toMatch(/│ 2026-11-21 07:00 │ 179\.5 │/);
    expect(table).toMatch(/│ 2026-11-20 07:00 │ 180\.0 │/);

    expect((await fit("measurements", "add", "waist", "32", "--at", "2026-11-20T07:00:00Z")).stdout).toMatch(/^Logged waist 32\.0 in /);
    await fit("measurements", "add", "hips", "99.5cm", "--at", "2026-11-21T07:00:00Z");
    expect((await json("measurements", "list")).items.map((m: { valueCm: number }) => m.valueCm)).toEqual([99.5, 81.28]);
    expect((await fit("measurements", "list")).stdout).toMatch(/│ waist │ 32\.0 │/);

    expect((await fit("targets", "set", "--goal", "170", "--start-weight", "82kg")).stdout).toMatch(/│ goal weight\s+│ 170\.0 lb\s+│[\s\S]*│ start weight\s+│ 180\.8 lb\s+│/);
    expect(await json("targets", "show")).toMatchObject({ goalWeightKg: 77.11, startWeightKg: 82 });

    const dashboard = (await fit("dashboard", "--date", "2026-11-21")).stdout;
    expect(dashboard).toContain("179.5 lb (7-day average 179.7 lb)");
    expect(dashboard).toContain("goal 170.0 lb");
    expect(dashboard).toContain("waist 32.0 in");
  });

  it("restates a refused weight in pounds, and refuses what reads as no weight before sending", async () => {
    const { fit } = await person();
    await fit("profile", "set", "--units", "imperial");
    expect(await fit("weight", "add", "800")).toMatchObject({ code: 2, stderr: "fit: weightKg must be between 19.8 lb and 705.5 lb\n" });
    expect(await fit("weight", "add", "80 parsecs")).toMatchObject({ code: 2, stderr: expect.stringContaining("not a number, or one with kg, lb or st") });
  });
});

describe("fit with stones", () => {
  it("reads a bare number as stones, stones and pounds with or without lb, and shows stones and pounds", async () => {
    const { fit, json } = await person();
    await fit("profile", "set", "--units", "imperial stones");
    await fit("weight", "add", "12", "--at", "2026-11-20T07:00:00Z");
    await fit("weight", "add", "12st 8lb", "--at", "2026-11-21T07:00:00Z");
    await fit("weight", "add", "12 st 8.5", "--at", "2026-11-22T07:00:00Z");
    expect((await json("weight", "list")).items.map((r: { weightKg: number }) => r.weightKg)).toEqual([80.06, 79.83, 76.2]);
    const table = (await fit("weight", "list")).stdout;
    expect(table).toMatch(/│ 2026-11-22 07:00 │ 12 st 8\.5 lb │/);
    expect(table).toMatch(/│ 2026-11-20 07:00 │ 12 st 0\.0 lb │/);
  });
});

describe("fit with a key that may not read the profile", () => {
  it("shows kg and refuses a bare number, but takes one with its unit", async () => {
    const { fit, json } = await person(["weight:read", "weight:write"]);
    expect(await fit("weight", "add", "180")).toMatchObject({ code: 2, stderr: expect.stringContaining("may not read the profile") });
    expect((await fit("weight", "add", "180lb")).stdout).toMatch(/^Logged 81\.65 kg /);
    expect((await json("weight", "list")).items).toEqual([expect.objectContaining({ weightKg: 81.65 })]);
  });
});
