// `fit` over every record a person keeps (workouts, measurements, food items, weigh-ins): list with ids, show,
// edit, delete, as the compiled binary against the whole platform. People's spellings in, people's labels out.
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdtemp, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cliPlatform, fitBinary, runFit } from "./support/cli.ts";

const platform = cliPlatform("records");

const { person } = platform;

const strength = {
  source: "activity_app", externalId: "gym-1", activityType: "strength_training", startedAt: Date.parse("2026-11-20T17:00:00Z"),
  durationS: 2700, summary: "Leg day", exercises: [{ exercise: "squat", sets: 5, reps: 5, weightLb: 225, durationS: null, distanceM: null, notes: null }],
};

describe("fit workouts list, show, edit, delete", () => {
  it("lists with ids and people's labels, shows one in full, corrects and deletes it", async () => {
    const { fit, json, api } = await person();
    const { workout } = (await api.post("/api/workouts/import", strength)).body;

    const list = await fit("workouts", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`│ ${workout.id} │ 2026-11-20 17:00 │ strength training │ Leg day │ 45:00 +│ – +│ – +│ activity app │`));
    expect(list.stdout).not.toContain("_");
    expect((await json("workouts", "list", "--type", "strength training")).items).toHaveLength(1);
    expect((await json("workouts", "list", "--type", "run")).items).toHaveLength(0);

    const shown = await fit("workouts", "show", workout.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/activity\s+│ strength training/);
    expect(shown.stdout).toMatch(/│ squat\s+│ 5\s+│ 5\s+│ 225\s+│/);
    expect(await json("workouts", "show", workout.id)).toMatchObject({
      id: workout.id, startedAt: strength.startedAt, startedAtIso: "2026-11-20T17:00:00.000Z", createdAtIso: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });

    const edited = await json("workouts", "edit", workout.id, "--type", "run", "--distance", "5,2", "--duration", "25:30", "--kcal", "300", "--start", "2026-11-21T07:00:00Z");
    expect(edited).toMatchObject({ activityType: "run", distanceM: 5200, durationS: 1530, energyKcal: 300, startedAt: Date.parse("2026-11-21T07:00:00Z"), summary: "Leg day" });
    expect((await fit("workouts", "edit", workout.id, "--summary", "Tempo")).stdout).toBe(`Saved run: 5.20 km in 25:30, 300 kcal — "Tempo" (id ${workout.id})\n`);
    expect(await fit("workouts", "edit", workout.id)).toMatchObject({ code: 2, stderr: "fit: at least one field must be given\n" });
    expect(await fit("workouts", "edit", workout.id, "--type", "juggling")).toMatchObject({ code: 2, stderr: expect.stringContaining("not one of: run, ride, swim, walk, hike, strength training") });

    expect(await fit("workouts", "delete", workout.id)).toMatchObject({ code: 0, stdout: `Deleted workout ${workout.id}\n` });
    for (const args of [["show", workout.id], ["edit", workout.id, "--kcal", "1"], ["delete", workout.id]]) {
      expect(await fit("workouts", ...args), args.join(" ")).toMatchObject({ code: 4, stdout: "", stderr: "fit: workout not found\n" });
    }
    expect(await fit("workouts", "show", "last-tuesday")).toMatchObject({ code: 2, stderr: "fit: id must be a UUID\n" });
  });
});

describe("fit measurements add, list, delete", () => {
  it("logs by a site's label or API name with a decimal comma, lists and filters with ids, deletes", async () => {
    const { fit, json } = await person();
    const biceps = await fit("measurements", "add", "left biceps", "35,5", "--at", "2026-11-20T07:00:00Z");
    expect(biceps.code).toBe(0);
    expect(biceps.stdout).toMatch(/^Logged left biceps 35\.5 cm \(id [0-9a-f-]{36}\)\n$/);
    const waist = await json("measurements", "add", "waist", "82", "--at", "2026-11-21T07:00:00Z");

    const table = await fit("measurements", "list");
    expect(table.stdout).toMatch(new RegExp(`│ ${waist.id} │ 2026-11-21 07:00 │ waist +│ 82 +│`));
    expect(table.stdout).toMatch(/│ 2026-11-20 07:00 │ left biceps │ 35\.5 │/);
    const filtered = await json("measurements", "list", "--site", "biceps_left");
    expect(filtered.items).toEqual([expect.objectContaining({ site: "biceps_left", valueCm: 35.5, tsIso: "2026-11-20T07:00:00.000Z" })]);

    expect(await fit("measurements", "delete", waist.id)).toMatchObject({ code: 0, stdout: `Deleted measurement ${waist.id}\n` });
    expect(await fit("measurements", "delete", waist.id)).toMatchObject({ code: 4, stderr: expect.stringMatching(/^fit: .*not found\n$/) });
    expect(await fit("measurements", "add", "elbow", "30")).toMatchObject({ code: 2, stderr: expect.stringContaining("not one of: waist, shoulders") });
    expect((await json("measurements", "list")).items).toHaveLength(1);
  });

  it("pages through everything with the cursor it prints", async () => {
    const { fit } = await person();
    for (const day of [20, 21, 22]) expect((await fit("measurements", "add", "waist", "80", "--at", `2026-11-${day}T07:00:00Z`)).code).toBe(0);
    const first = await fit("measurements", "list", "--limit", "2");
    const cursor = /More: add --cursor (\S+)/.exec(first.stdout)?.[1];
    expect(cursor).toBeDefined();
    const second = await fit("measurements", "list", "--limit", "2", "--cursor", cursor!);
    expect(second.stdout).toContain("2026-11-20 07:00");
    expect(second.stdout).not.toContain("More:");
  });
});

describe("fit food add, list, edit, delete", () => {
  it("logs without protein as the web form does, lists with ids, moves an item to another day and deletes it", async () => {
    const { fit, json } = await person();
    const apple = await json("food", "add", "apple", "--kcal", "52,5", "--meal", "snack", "--date", "2026-11-24");
    expect(apple).toMatchObject({ name: "apple", kcal: 52.5, proteinG: 0, meal: "snack", createdAtIso: expect.any(String), updatedAtIso: expect.any(String) });
    await fit("food", "add", "oats", "--kcal", "380", "--protein", "13", "--carbs", "66", "--date", "2026-11-24");

    const list = await fit("food", "list", "--date", "2026-11-24");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`│ ${apple.id} │ snack +│ apple │ 52\\.5 │ 0 +│ – +│ – +│`));
    expect(list.stdout).toMatch(/│ oats +│ 380 +│ 13 +│ 66 +│ – +│/);

    const moved = await fit("food", "edit", apple.id, "--kcal", "95", "--date", "2026-11-25");
    expect(moved).toMatchObject({ code: 0, stdout: "Saved apple: 95 kcal, 0 g protein (snack, 2026-11-25)\n" });
    expect(await json("food", "list", "--date", "2026-11-24")).toEqual([expect.objectContaining({ name: "oats" })]);
    expect(await json("food", "list", "--date", "2026-11-25")).toEqual([expect.objectContaining({ id: apple.id, kcal: 95 })]);
    expect((await fit("food", "list", "--date", "2026-11-23")).stdout).toBe("Nothing logged on 2026-11-23.\n");

    expect(await fit("food", "delete", apple.id)).toMatchObject({ code: 0, stdout: `Deleted food item ${apple.id}\n` });
    const unknown = randomUUID();
    for (const args of [["edit", unknown, "--kcal", "1"], ["delete", unknown]]) {
      expect(await fit("food", ...args), args.join(" ")).toMatchObject({ code: 4, stderr: expect.stringMatching(/^fit: .*not found\n$/) });
    }
    expect(await fit("food", "add", "pie", "--kcal", "lots")).toMatchObject({ code: 2, stderr: expect.stringContaining("not a number") });
  });
});

describe("fit weight with people's numbers", () => {
  it("reads 81,5 as 81.5 in an argument and in a semicolon CSV, and lists with ids and ISO times", async () => {
    const { fit, json } = await person();
    const added = await json("weight", "add", "81,5", "--fat", "18,5", "--at", "2026-11-20T07:30:00Z");
    const folder = await mkdtemp(join(platform.home, "csv-"));
    const csv = join(folder, "scale.csv");
    await writeFile(csv, "time;weight_kg;body_fat_pct\n2026-11-21T07:00:00Z;81,2;18\n");
    expect((await fit("import", csv)).code).toBe(0);
    const page = await json("weight", "list");
    expect(page.items).toEqual([
      expect.objectContaining({ weightKg: 81.2, bodyFatPct: 18, tsIso: "2026-11-21T07:00:00.000Z" }),
      expect.objectContaining({ id: added.id, weightKg: 81.5, bodyFatPct: 18.5, ts: Date.parse("2026-11-20T07:30:00Z"), tsIso: "2026-11-20T07:30:00.000Z" }),
    ]);
    expect((await fit("weight", "list")).stdout).toMatch(new RegExp(`│ ${added.id} │ 2026-11-20 07:30 │ 81\\.5 │ 18\\.5 +│ +│ manual │`));
  });

  it("refuses a time more than a day ahead: an argument before sending anything, a CSV row as the import's refused row", async () => {
    const { fit, json } = await person();
    const ahead = new Date(Date.now() + 2 * 86_400_000).toISOString();
    expect(await fit("weight", "add", "80", "--at", ahead)).toMatchObject({ code: 2, stderr: "fit: ts must not be more than a day in the future\n" });
    const csv = join(await mkdtemp(join(platform.home, "ahead-")), "ahead.csv");
    await writeFile(csv, `time,weight_kg\n2026-11-20T07:00:00Z,82\n${ahead},81\n`);
    // The CSV goes through the imports service, which reads every row and refuses this one with its line.
    const imported = await fit("import", csv);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/│ 3 +│ ts must not be more than a day in the future/);
    expect(await fit("measurements", "add", "waist", "80", "--at", ahead)).toMatchObject({ code: 2 });
    expect((await json("weight", "list")).items.map((w: { ts: number }) => w.ts)).toEqual([Date.parse("2026-11-20T07:00:00Z")]);
  });
});

describe("fit --help", () => {
  it("names every command, and each command's help answers", async () => {
    const help = await runFit(["--help"], { home: platform.home });
    expect(help.code).toBe(0);
    for (const name of ["weight", "measurements", "food", "today", "dashboard", "targets", "insights", "profile", "recipe", "workouts", "import", "apps"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
    }
    for (const args of [["workouts", "--help"], ["food", "--help"], ["measurements", "--help"], ["profile", "set", "--help"], ["workouts", "edit", "--help"]]) {
      const run = await runFit(args, { home: platform.home });
      expect(run.code, args.join(" ")).toBe(0);
    }
    expect((await runFit(["workouts", "--help"], { home: platform.home })).stdout).toMatch(/list .*\n.*show .*\n.*edit .*\n.*delete/s);
    const manual = await runFit(["import", "run.gpx", "--source", "manual"], { home: platform.home });
    expect(manual).toMatchObject({ code: 2, stderr: expect.stringContaining("not one of: phone health, watch device, activity app") });
  });
});

describe("pnpm fit", () => {
  const run = () => promisify(execFile)(process.execPath, [join(fitBinary, "../../run.mjs"), "--help"]);

  it("runs the built file as it is, and builds it again only once a file it was built from is newer", async () => {
    const built = (await stat(fitBinary)).mtimeMs;
    expect((await run()).stdout).toContain("Usage: fit");
    expect((await stat(fitBinary)).mtimeMs).toBe(built);
    const source = join(fitBinary, "../../src/labels.ts");
    const later = new Date(built + 2000);
    await utimes(source, later, later);
    expect((await run()).stdout).toContain("Usage: fit");
    expect((await stat(fitBinary)).mtimeMs).toBeGreaterThan(built);
  });
});
