// The web app's insights (Debian's Chromium driven by Playwright) against the whole platform: three weeks of
// weigh-ins and food written through the API, then Home's trend line through the scale points, the weekly rate,
// goal date, expenditure and suggested target as GET /api/insights states them, "Use this" making the
// suggestion the targets (and a refusal shown in an alert), History's trend and weekly expenditure, and pounds
// for an imperial profile.
import type { Insights } from "@fit/contracts";
import type { Locator } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { signedInWebApp } from "./support/web-app.ts";
import { waitFor } from "./support/wait.ts";

/** A loaded CI machine may take seconds to show what a write changed: poll for that long, not vitest's 1 s. */
const POLL = { timeout: 15_000 };
const DAY_MS = 86_400_000;
const KG_PER_LB = 0.45359237;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const localDay = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
const daysAgo = (n: number) => localDay(new Date(Date.now() - n * DAY_MS));
/** Thousands grouped with a no-break space, as the screen writes kcal. */
const grouped = (n: number) => n.toLocaleString("en-US").replaceAll(",", "\u00a0");
const twoPlaces = (n: number) => String(Math.round(n * 100) / 100);

/** Three weeks, losing about 0.5 kg a week under ±0.6 kg of water; two mornings skipped, and no food logged on four days. */
const SEED_DAYS = 21;
const SKIPPED_WEIGH_INS = new Set([5, 12]);
const UNLOGGED_FOOD = new Set([3, 9, 10, 16]);
const weightOn = (ago: number) => Math.round((81 + ago * 0.07 + Math.sin(ago * 2.3) * 0.6) * 100) / 100;

describe("the web app's insights", () => {
  const email = "insights@example.com";
  const web = signedInWebApp(email);
  let key: string;
  const today = localDay(new Date());

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${web.system.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(answer.status, `${method} ${path}`).toBe(200);
    return (await answer.json()) as T;
  };
  const insights = (date = today) => api<Insights>("GET", `/api/insights?date=${date}`);
  const targets = { dailyKcalTarget: 2600, proteinTargetG: 110, goalWeightKg: 76, targetDate: Date.now() + 84 * DAY_MS };

  const open = async (link: string) => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link, exact: true }).click();
    await web.page.getByRole("heading", { name: link, level: 1 }).waitFor();
  };
  /** A chart's numbers table, opened: its rows, one a day. */
  const numbersOf = async (region: Locator) => {
    const details = region.locator("details.numbers");
    if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
    return details.locator("tbody tr");
  };
  /** A column's cells, by its heading, in day order. */
  const column = async (rows: Locator, region: Locator, heading: string) => {
    const headings = await region.locator("details.numbers thead th").allTextContents();
    const index = headings.indexOf(heading);
    expect(index, `column ${heading} in ${headings.join(", ")}`).toBeGreaterThan(0);
    return rows.locator(`td:nth-child(${index + 1})`).allTextContents();
  };
  const checkAccessibility = async (screen: string) => {
    await web.page.setViewportSize(PHONE);
    await expectNoSeriousViolations(web.page, `${screen} (phone)`);
    expect(await web.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await web.page.setViewportSize(DESKTOP);
    await expectNoSeriousViolations(web.page, `${screen} (desktop)`);
  };

  beforeAll(async () => {
    ({ key } = await web.system.key(email));
    const timeZone = await web.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await api("PUT", "/api/profile", { units: "metric", heightCm: 178, birthYear: 1988, sex: "male", activityLevel: "light", timeZone });
    await api("PUT", "/api/targets", targets);
    for (let ago = SEED_DAYS; ago >= 0; ago--) {
      if (!SKIPPED_WEIGH_INS.has(ago)) {
        const morning = new Date(`${daysAgo(ago)}T07:30:00`).getTime();
        await api("POST", "/api/weight", { weightKg: weightOn(ago), ts: Math.min(morning, Date.now() - 60_000) });
      }
      if (ago > 0 && !UNLOGGED_FOOD.has(ago)) {
        await api("POST", "/api/nutrition/items", { date: daysAgo(ago), name: "the day's meals", kcal: 2100 + (ago % 3) * 120, proteinG: 120 });
      }
    }
    // The insights follow the events: wait until every weigh-in and food day has reached them.
    const weighed = SEED_DAYS + 1 - SKIPPED_WEIGH_INS.size;
    const logged = SEED_DAYS - UNLOGGED_FOOD.size;
    await waitFor("every weigh-in and food day in the insights", async () => {
      const now = await insights();
      return now.trend.filter((point) => point.kg !== null).length === weighed && now.days.length === logged ? now : undefined;
    }, 30_000);
  }, 180_000);


  it("draws the trend line through the scale points on Home and states rate, goal date and expenditure as the API does", async () => {
    const expected = await insights();
    await web.page.reload();
    const trend = web.page.getByRole("region", { name: "90-day trend" });
    await trend.locator(".chart canvas").waitFor(POLL);
    expect(await trend.getByRole("figure").getAttribute("aria-label")).toBe("Weight over the last 90 days: the scale and the trend");
    const rows = await numbersOf(trend);
    expect(await rows.count()).toBe(expected.trend.length);
    expect(expected.trend.length).toBe(SEED_DAYS + 1);
    expect(await column(rows, trend, "Trend")).toEqual(expected.trend.map((point) => `${twoPlaces(point.trendKg)} kg`));
    expect(await column(rows, trend, "Scale")).toEqual(expected.trend.map((point) => (point.kg === null ? "" : `${twoPlaces(point.kg)} kg`)));
    expect(await column(rows, trend, "Goal")).toEqual(expected.trend.map(() => "76 kg"));

    expect(await trend.getByTestId("trend-weight").textContent()).toBe(`Trend weight ${twoPlaces(expected.trendKg!)} kg`);
    const rate = expected.weeklyRateKg!;
    expect(rate).toBeLessThan(0);
    expect(await trend.getByTestId("weekly-rate").textContent())
      .toBe(`Losing ${Math.abs(rate).toFixed(2)} kg a week, the trend over the last ${expected.rateWindowDays} days.`);
    const goal = trend.getByTestId("goal-date");
    expect(await goal.locator("time").first().getAttribute("datetime")).toBe(expected.goal!.goalDate);
    expect(await goal.locator("time").last().getAttribute("datetime")).toBe(expected.goal!.targetDate);
    expect(await goal.textContent()).toMatch(/^At this rate you reach 76 kg around .+, \d+ (days|weeks) (before|after) your target date, .+\.$/);

    const energy = web.page.getByRole("region", { name: "Expenditure and targets" });
    const { kcal, low, high, confidence, daysCounted } = expected.expenditure!;
    expect(await energy.getByTestId("expenditure").textContent()).toBe(`≈ ${grouped(kcal)} kcal/day (${grouped(low)}–${grouped(high)})`);
    expect(daysCounted).toBe(SEED_DAYS - UNLOGGED_FOOD.size);
    expect(await energy.getByTestId("expenditure-confidence").textContent()).toBe(`${confidence.charAt(0).toUpperCase()}${confidence.slice(1)} confidence, from ${daysCounted} counted food days and your trend.`);
    const suggested = expected.suggestedTargets!;
    expect(await energy.getByTestId("suggestion").textContent())
      .toContain(`Suggested: ${grouped(suggested.dailyKcal)} kcal and ${suggested.dailyProteinG} g protein a day`);
    await checkAccessibility("Home with insights");
  });

  it("shows the API's refusal of \"Use this\" in an alert, then makes the suggestion the targets shown on Home", async () => {
    const suggested = (await insights()).suggestedTargets!;
    expect(suggested.dailyKcal).not.toBe(targets.dailyKcalTarget);
    await web.page.reload();
    const energy = web.page.getByRole("region", { name: "Expenditure and targets" });
    const use = energy.getByRole("button", { name: "Use this" });
    await use.waitFor(POLL);
    expect(await web.page.getByTestId("today-energy").textContent()).toBe(`0 / ${targets.dailyKcalTarget} kcal`);

    // The goal is cleared behind the page's back: the server has no suggestion to adopt and says so.
    await api("PUT", "/api/targets", { ...targets, goalWeightKg: null });
    await use.click();
    const alert = energy.getByRole("alert");
    await alert.waitFor(POLL);
    expect(await alert.textContent()).toBe("there is no suggestion yet: it needs a goal weight (PUT /api/targets) and a weigh-in");
    expect(await api("GET", "/api/targets")).toMatchObject({ dailyKcalTarget: targets.dailyKcalTarget, proteinTargetG: targets.proteinTargetG });

    await api("PUT", "/api/targets", targets);
    await use.click();
    await energy.getByRole("status").filter({ hasText: `Your targets are now ${grouped(suggested.dailyKcal)} kcal and ${suggested.dailyProteinG} g protein a day.` }).waitFor(POLL);
    await expect.poll(() => web.page.getByTestId("today-energy").textContent(), POLL).toBe(`0 / ${suggested.dailyKcal} kcal`);
    expect(await web.page.getByTestId("today-protein").textContent()).toBe(`0 / ${suggested.dailyProteinG} g`);
    expect(await energy.getByRole("alert").count()).toBe(0);
    await energy.getByText("These are your targets.").waitFor(POLL);
    expect(await api("GET", "/api/targets")).toMatchObject({
      dailyKcalTarget: suggested.dailyKcal, proteinTargetG: suggested.dailyProteinG, goalWeightKg: targets.goalWeightKg,
    });
  });

  it("charts the trend and the expenditure week by week on History", async () => {
    const weeks = await Promise.all(Array.from({ length: 13 }, (_, week) => insights(daysAgo(7 * (12 - week)))));
    const estimated = weeks.filter((week) => week.expenditure !== null);
    // Three weeks of data: the estimate as of today, a week and two weeks ago, and three if that morning was weighed.
    expect(estimated.length).toBeGreaterThanOrEqual(3);
    const now = weeks.at(-1)!;
    await open("History");
    const trend = web.page.getByRole("region", { name: "Trend weight", exact: true });
    await trend.locator(".chart canvas").waitFor(POLL);
    const trendRows = await numbersOf(trend);
    expect(await column(trendRows, trend, "Trend")).toEqual(now.trend.map((point) => `${twoPlaces(point.trendKg)} kg`));

    const expenditure = web.page.getByRole("region", { name: "Expenditure", exact: true });
    await expenditure.locator(".chart canvas").waitFor(POLL);
    const rows = await numbersOf(expenditure);
    const shown = (await column(rows, expenditure, "Expenditure")).filter(Boolean);
    expect(shown).toEqual(estimated.map((week) => `${week.expenditure!.kcal} kcal`));
    expect((await column(rows, expenditure, "Low")).filter(Boolean)).toEqual(estimated.map((week) => `${week.expenditure!.low} kcal`));
    expect((await column(rows, expenditure, "Intake counted")).filter(Boolean))
      .toEqual(now.days.filter((day) => day.counted).map((day) => `${day.kcal} kcal`));
    await checkAccessibility("History with insights");
  });

  it("shows the trend, the rate and the chart in pounds for an imperial profile", async () => {
    const profile = await api<Record<string, unknown>>("GET", "/api/profile");
    await api("PUT", "/api/profile", { ...profile, units: "imperial" });
    const expected = await insights();
    await web.page.goto(web.system.url);
    const trend = web.page.getByRole("region", { name: "90-day trend" });
    await trend.getByTestId("trend-weight").waitFor(POLL);
    expect(await trend.getByTestId("trend-weight").textContent()).toBe(`Trend weight ${(expected.trendKg! / KG_PER_LB).toFixed(1)} lb`);
    expect(await trend.getByTestId("weekly-rate").textContent())
      .toBe(`Losing ${Math.abs(expected.weeklyRateKg! / KG_PER_LB).toFixed(1)} lb a week, the trend over the last ${expected.rateWindowDays} days.`);
    expect(await trend.getByTestId("goal-date").textContent()).toContain(`you reach ${(76 / KG_PER_LB).toFixed(1)} lb around`);
    const rows = await numbersOf(trend);
    expect(await column(rows, trend, "Trend")).toEqual(expected.trend.map((point) => `${twoPlaces(point.trendKg / KG_PER_LB)} lb`));
  });
});
