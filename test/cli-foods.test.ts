// `fit` over the food database, as the compiled binary against the whole platform: search by the words people
// type, a food with its numbered portions, and items logged from a food and a portion (the server's numbers).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { cliPlatform, runFit } from "./support/cli.ts";
import { NUTELLA, startOpenFoodFacts, type OpenFoodFactsStandIn } from "./support/open-food-facts.ts";

const BANANA = "usda:173944"; // Bananas, raw: 89 kcal, 1.09 g protein, 0.33 fat, 22.84 carbs, 2.6 fiber per 100 g; #2 is 1 cup, sliced = 150 g
const date = "2026-11-20";

let openFoodFacts: OpenFoodFactsStandIn;
beforeAll(async () => {
  openFoodFacts = await startOpenFoodFacts();
});
afterAll(async () => {
  await openFoodFacts?.close();
});
const platform = cliPlatform("foods", () => ({ FOOD_BARCODE_URL: openFoodFacts.url }));

const { person } = platform;

describe("fit food search and show", () => {
  it("finds a food through a typo, with its values per 100 g, one line each", async () => {
    const { fit, json } = await person();
    const search = await fit("food", "search", "banan", "--limit", "3");
    expect(search.code).toBe(0);
    const rows = search.stdout.split("\n").filter((line) => line.startsWith("│ usda:"));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^│ usda:173944 │ Bananas, raw +│ 89 +│ 1\.09 +│ 0\.33 +│ 22\.84 +│ 2\.6 +│$/);
    expect(search.stdout).toContain("food (per 100 g)");
    const found = await json("food", "search", "chiken", "brest", "--limit", "1");
    expect(found).toEqual([expect.objectContaining({ id: expect.stringMatching(/^usda:\d+$/), name: expect.stringMatching(/^Chicken, broilers? or fryers, breast/) })]);
    expect((await fit("food", "search", "xqzv")).stdout).toBe('No food matches "xqzv".\n');
    expect(await fit("food", "search", "egg", "--limit", "0")).toMatchObject({ code: 2, stderr: expect.stringContaining("not a whole number from 1 to 50") });
  });

  it("shows a food's household measures numbered, by id or by words", async () => {
    const { fit, json } = await person();
    const shown = await fit("food", "show", BANANA);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/food +│ Bananas, raw/);
    expect(shown.stdout).toMatch(/per 100 g +│ 89 kcal · 1\.09 g protein · 0\.33 g fat · 22\.84 g carbs · 2\.6 g fiber/);
    expect(shown.stdout).toMatch(/│ 1 │ 1 cup, mashed +│ 225 │/);
    expect(shown.stdout).toMatch(/│ 2 │ 1 cup, sliced +│ 150 │/);
    expect(shown.stdout).toContain(`Log it: fit food add --food ${BANANA} --portion 150g, 1 (measure #1) or 2x1 (two of it)`);
    expect(await json("food", "show", "bananas", "raw")).toMatchObject({ id: BANANA, portions: expect.arrayContaining([{ id: 2, amount: 1, unit: "cup, sliced", grams: 150 }]) });
  });
});

describe("fit food barcode", () => {
  it("shows a packaged food by its barcode, logs it with --food <barcode>, and refuses a mistyped one before asking", async () => {
    const { fit, json } = await person();
    const shown = await fit("food", "barcode", NUTELLA.code);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/id +│ off:3017620422003/);
    expect(shown.stdout).toMatch(/food +│ Nutella \(Ferrero\)/);
    expect(shown.stdout).toMatch(/per 100 g +│ 539 kcal · 6\.3 g protein · 30\.9 g fat · 57\.5 g carbs · 0 g fiber/);
    expect(shown.stdout).toMatch(/│ 1 │ 1 serving \(15 g\) +│ 15 │/);
    const logged = await fit("food", "add", "--food", NUTELLA.code, "--portion", "2 servings", "--date", date);
    expect(logged).toMatchObject({ code: 0, stderr: "" });
    expect(logged.stdout).toBe(`Logged Nutella (Ferrero), 2 × serving (15 g) (30 g): 161.7 kcal, 1.89 g protein, 9.27 g fat, 17.25 g carbs, 0 g fiber (no meal, ${date}) from off:${NUTELLA.code}\n`);
    expect(await json("food", "show", `off:${NUTELLA.code}`)).toMatchObject({ name: "Nutella (Ferrero)" });
    const asked = openFoodFacts.asked.length;
    expect(await fit("food", "barcode", "3017620422004")).toMatchObject({ code: 2, stderr: expect.stringContaining("check digit") });
    expect(await fit("food", "barcode", "4006381333931")).toMatchObject({ code: 4, stderr: expect.stringContaining("no product with barcode 4006381333931") });
    expect(openFoodFacts.asked.length).toBe(asked + 1);
  });
});

describe("fit food add --food --portion", () => {
  it("logs grams by id and a counted measure by words; the server's numbers are the food's per 100 g × grams / 100", async () => {
    const { fit, json } = await person();
    const byId = await fit("food", "add", "--food", BANANA, "--portion", "150,5 g", "--meal", "breakfast", "--date", date);
    expect(byId).toMatchObject({ code: 0, stderr: "" });
    expect(byId.stdout).toBe(`Logged Bananas, raw, 150.5 g: 133.9 kcal, 1.64 g protein, 0.5 g fat, 34.37 g carbs, 3.91 g fiber (breakfast, ${date}) from ${BANANA}\n`);

    const byWords = await fit("food", "add", "--food", "bananas raw", "--portion", "2x2", "--meal", "snack", "--date", date);
    expect(byWords.code).toBe(0);
    expect(byWords.stdout).toBe(
      `Picked ${BANANA} Bananas, raw, the best match for "bananas raw" (others: fit food search)\n` +
        `Logged Bananas, raw, 2 × cup, sliced (300 g): 267 kcal, 3.27 g protein, 0.99 g fat, 68.52 g carbs, 7.8 g fiber (snack, ${date}) from ${BANANA}\n`,
    );
    const counted = await json("food", "add", "banana", "--food", "banan", "--portion", "1", "--count", "2", "--date", date);
    expect(counted).toMatchObject({ name: "banana", source: BANANA, grams: 450, quantity: 2, unit: "cup, mashed" });
    const served = await json("food", "add", "--food", BANANA, "--portion", "1 serving", "--date", date);
    expect(served).toMatchObject({ grams: 126, unit: "NLEA serving" });

    const { per100g } = await json("food", "show", BANANA);
    const items = await json("food", "list", "--date", date);
    expect(items.map((item: { grams: number }) => item.grams)).toEqual([150.5, 300, 450, 126]);
    for (const item of items) {
      expect(item.source).toBe(BANANA);
      expect(item.kcal).toBeCloseTo((per100g.kcal * item.grams) / 100, 1);
      expect(item.fiberG).toBeCloseTo((per100g.fiberG * item.grams) / 100, 2);
    }
    const list = await fit("food", "list", "--date", date);
    expect(list.stdout).toMatch(/│ snack +│ Bananas, raw │ 267 +│ 3\.27 +│ 68\.52 +│ 0\.99 +│ 7\.8 +│ 2 × cup, sliced \(300 g\) +│ usda:173944 │/);
  });

  it("stores one item when the answer to a write is lost: the retry resends its Idempotency-Key", async () => {
    const { key } = await platform.system.account();
    // Passes every request to the platform, but loses the answer to the first write as a restarting gateway would.
    let posts = 0;
    const forward = async (method: string, path: string, incoming: IncomingHttpHeaders, body: Buffer, response: ServerResponse) => {
      const headers = Object.fromEntries(Object.entries(incoming).filter(([name]) => name !== "host" && name !== "content-length")) as Record<string, string>;
      const answer = await fetch(`${platform.system.url}${path}`, { method, headers, ...(method === "GET" ? {} : { body }) });
      const text = await answer.text();
      if (method === "POST" && ++posts === 1) return response.writeHead(503, { "retry-after": "0" }).end();
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(text);
    };
    const proxy = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => void forward(request.method ?? "GET", request.url ?? "/", request.headers, Buffer.concat(chunks), response));
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const run = await runFit(["food", "add", "--food", "banan", "--portion", "100g", "--date", date, "--json"], { home: platform.home, env: { FIT_URL: url, FIT_API_KEY: key } });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(posts).toBe(2);
    const items = await runFit(["food", "list", "--date", date, "--json"], { home: platform.home, env: { FIT_URL: platform.system.url, FIT_API_KEY: key } });
    expect(JSON.parse(items.stdout)).toEqual([expect.objectContaining({ id: JSON.parse(run.stdout).id, kcal: 89, source: BANANA })]);
  });

  it("keeps typed items working, with fiber, and shows them without a source", async () => {
    const { fit, json } = await person();
    expect((await fit("food", "add", "toast", "--kcal", "80", "--protein", "3", "--fiber", "1,2", "--date", date)).stdout)
      .toBe(`Logged toast: 80 kcal, 3 g protein (no meal, ${date})\n`);
    expect(await json("food", "list", "--date", date)).toEqual([expect.objectContaining({ name: "toast", fiberG: 1.2, source: null, grams: null })]);
    expect((await fit("food", "list", "--date", date)).stdout).toMatch(/│ toast │ 80 +│ 3 +│ – +│ – +│ 1\.2 +│ +│ – +│/);
  });

  it.each([
    ["an unknown id", ["--food", "usda:999999999", "--portion", "100g"], 4, "fit: no food usda:999999999\n"],
    ["words no food has", ["--food", "xqzv", "--portion", "100g"], 4, 'fit: no food matches "xqzv"; try other words, or `fit food search`\n'],
    ["not a food id", ["--food", "usda:banana", "--portion", "100g"], 2, "fit: foodId must be a food id like usda:173944, off:3017620422003, custom:<uuid> or recipe:<uuid>\n"],
    ["a portion that is none", ["--food", BANANA, "--portion", "2 cups"], 2, expect.stringContaining("not a portion: grams (150g)")],
    ["a measure the food lacks", ["--food", BANANA, "--portion", "99"], 1, expect.stringMatching(/^fit: portion\.measure 99 is not one of usda:173944's portions \(1, 2, .*grams always work\); for 99 grams write --portion 99g\n$/)],
    ["too many grams", ["--food", BANANA, "--portion", "6000g"], 2, "fit: portion.grams must be greater than 0 and at most 5000\n"],
    ["no portion", ["--food", BANANA], 2, expect.stringContaining("fit: --portion is required with --food")],
    ["a count with grams", ["--food", BANANA, "--portion", "100g", "--count", "2"], 2, "fit: --count goes with a measure's number (--portion 3 --count 2)\n"],
    ["typed numbers beside a food", ["--food", BANANA, "--portion", "100g", "--kcal", "50"], 2, "fit: --kcal: computed from the food and the portion; leave out\n"],
    ["a portion without a food", ["apple", "--kcal", "50", "--portion", "100g"], 2, "fit: --portion goes with --food (a food of the database)\n"],
    ["neither a name nor a food", ["--kcal", "50"], 2, "fit: name what was eaten, or pick a food of the database with --food\n"],
  ])("refuses %s with a clear message and stores nothing", async (_case, args, code, stderr) => {
    const { fit, json } = await person();
    expect(await fit("food", "add", ...args, "--date", date)).toMatchObject({ code, stdout: "", stderr });
    expect(await json("food", "list", "--date", date)).toEqual([]);
  });
});

describe("fit food copy and recent, and fit today's macros", () => {
  it("logs yesterday's lunch again as today's dinner, lists the food as recent, and shows fat, carbs and fibre for the day", async () => {
    const { fit, json } = await person();
    const yesterday = new Date(Date.now() - 86_400_000);
    const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const [yesterdayDay, today] = [localDay(yesterday), localDay(new Date())];
    expect((await fit("food", "add", "--food", BANANA, "--portion", "150g", "--meal", "lunch", "--date", yesterdayDay)).code).toBe(0);
    expect((await fit("food", "add", "toast", "--kcal", "80", "--protein", "3", "--meal", "lunch", "--date", yesterdayDay)).code).toBe(0);
    expect((await fit("food", "add", "soup", "--kcal", "200", "--protein", "8", "--meal", "dinner", "--date", yesterdayDay)).code).toBe(0);

    const copied = await fit("food", "copy", "--from", "yesterday", "--meal", "lunch", "--to", "today", "--to-meal", "dinner");
    expect(copied).toMatchObject({ code: 0, stderr: "" });
    expect(copied.stdout).toBe(
      `Logged Bananas, raw, 150 g: 133.5 kcal, 1.64 g protein, 0.5 g fat, 34.26 g carbs, 3.9 g fiber (dinner, ${today}) from ${BANANA}\n` +
        `Logged toast: 80 kcal, 3 g protein (dinner, ${today})\n`,
    );
    const items = await json("food", "list", "--date", today);
    expect(items.map((item: { name: string; meal: string }) => [item.name, item.meal])).toEqual([["Bananas, raw", "dinner"], ["toast", "dinner"]]);

    const day = await fit("today");
    expect(day.code).toBe(0);
    expect(day.stdout).toContain(`${today}: 213.5 kcal · 4.6 g protein · 0.5 g fat · 34.3 g carbs · 3.9 g fiber (1 item without them)`);

    const recent = await fit("food", "recent");
    expect(recent.stdout).toMatch(/^│ usda:173944 │ Bananas, raw +│ 2 +│ \d{4}-\d\d-\d\d │ 89 +│ 1\.09 +│ 0\.33 +│ 22\.84 +│ 2\.6 +│$/m);
    expect(await json("food", "recent")).toEqual([expect.objectContaining({ id: BANANA, timesLogged: 2, lastLoggedOn: today })]);

    const nothing = await fit("food", "copy", "--from", yesterdayDay, "--meal", "breakfast");
    expect(nothing).toMatchObject({ code: 4, stdout: "", stderr: expect.stringContaining(`nothing is logged on ${yesterdayDay} at breakfast`) });
    expect(await fit("food", "copy", "--from", "someday")).toMatchObject({ code: 2, stderr: expect.stringContaining("not a day in the form YYYY-MM-DD") });
  }, 60_000);
});

describe("fit food day", () => {
  it("shows whether a day counts and marks it complete, excluded or back to auto; one mark at a time", async () => {
    const { fit, json } = await person();
    const day = "2026-11-14";
    expect((await fit("food", "day", day)).stdout).toBe(`${day}: not counted (nothing logged) · 0 items, 0 kcal\n`);
    expect((await fit("food", "day", day, "--complete")).stdout).toBe(`${day}: counted (marked complete) · 0 items, 0 kcal\n`);
    expect((await fit("food", "add", "toast", "--kcal", "80", "--protein", "3", "--date", day)).code).toBe(0);
    expect(await json("food", "day", day, "--exclude")).toEqual({ date: day, mark: "excluded", counted: false, itemCount: 1, kcal: 80 });
    expect(await json("food", "day", day)).toEqual({ date: day, mark: "excluded", counted: false, itemCount: 1, kcal: 80 });
    expect((await fit("food", "day", day, "--auto")).stdout).toBe(`${day}: counted (has items) · 1 item, 80 kcal\n`);
    expect(await fit("food", "day", day, "--complete", "--exclude")).toMatchObject({ code: 2, stdout: "", stderr: expect.stringContaining("one of --complete, --exclude, --auto") });
    expect(await fit("food", "day", "2026-02-30")).toMatchObject({ code: 2, stdout: "" });
  });
});
