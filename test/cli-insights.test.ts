// `fit insights` as the compiled binary against the whole platform: the table in the profile's units, --json as
// the API answers, and --adopt making the suggestion the targets.
import { describe, expect, it } from "vitest";
import { cliPlatform } from "./support/cli.ts";
import { waitFor } from "./support/wait.ts";

const platform = cliPlatform("insights");

const DAY_MS = 86_400_000;
const DAYS = 21;

describe("fit insights", () => {
  it("shows trend, rate, goal, expenditure and the suggestion in pounds for an imperial profile, and adopts it", async () => {
    const { api, fit, json } = await platform.person();
    await api.put("/api/profile", { heightCm: 180, birthYear: 1985, sex: "male", activityLevel: "light", units: "imperial", timeZone: "UTC" });
    await api.put("/api/targets", { goalWeightKg: 80 });
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 7);
    for (let i = 0; i < DAYS; i++) {
      const ts = today - (DAYS - 1 - i) * DAY_MS;
      expect((await api.post("/api/weight", { weightKg: 90 - 0.08 * i + (i % 2 ? 0.4 : -0.4), ts })).status).toBe(200);
      const date = new Date(ts).toISOString().slice(0, 10);
      expect((await api.post("/api/nutrition/items", { date, name: "meals", kcal: 2100, proteinG: 150 })).status).toBe(200);
    }

    const insights = await waitFor("every weigh-in and food day in the insights", async () => {
      const answer = await json("insights");
      return answer.trend.length === DAYS && answer.days.length === DAYS ? answer : undefined;
    }, 30_000, 250);
    expect(insights.trendKg).toBeGreaterThan(87.5);
    expect(insights.trendKg).toBeLessThan(89.5);
    expect(insights.weeklyRateKg).toBeLessThan(0);
    expect(insights.expenditure.daysCounted).toBe(DAYS);

    const table = await fit("insights");
    expect(table.code).toBe(0);
    const pounds = (kg: number) => (kg / 0.45359237).toFixed(1);
    expect(table.stdout).toContain(`trend weight │ ${pounds(insights.trendKg)} lb`);
    expect(table.stdout).toMatch(/weekly rate\s+│ −\d+\.\d lb\/week over \d+ days/);
    expect(table.stdout).toContain(`goal         │ ${pounds(80)} lb`);
    expect(table.stdout).toContain(`${insights.expenditure.kcal} kcal/day (${insights.expenditure.low}–${insights.expenditure.high})`);
    expect(table.stdout).toContain(`${insights.suggestedTargets.dailyKcal} kcal · ${insights.suggestedTargets.dailyProteinG} g protein`);
    expect(table.stdout).not.toContain(" kg");

    const adopted = await fit("insights", "--adopt");
    expect(adopted).toMatchObject({
      code: 0, stdout: `Targets now ${insights.suggestedTargets.dailyKcal} kcal and ${insights.suggestedTargets.dailyProteinG} g protein a day.\n`,
    });
    expect((await api.get("/api/targets")).body).toMatchObject({
      goalWeightKg: 80, dailyKcalTarget: insights.suggestedTargets.dailyKcal, proteinTargetG: insights.suggestedTargets.dailyProteinG,
    });
    expect(await fit("insights", "--date", "yesterday-ish")).toMatchObject({ code: 2 });
  });

  it("says what is missing for a new account instead of numbers it cannot know", async () => {
    const { fit } = await platform.person();
    const table = await fit("insights");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("– (no weigh-in yet)");
    expect(table.stdout).toContain("no goal weight (fit targets set --goal …)");
    const adopt = await fit("insights", "--adopt");
    expect(adopt).toMatchObject({ stdout: "", stderr: expect.stringContaining("there is no suggestion yet: it needs a goal weight") });
    expect(adopt.code).not.toBe(0);
  });
});
