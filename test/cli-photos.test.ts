// `fit workouts photo` and `fit food photo`, as the compiled binary against the whole platform: the photo sent as
// the raw body, what was read and what was logged printed, or the refusal with what was read (docs/decisions/0079).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPlatform } from "./support/cli.ts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";

const platform = cliPlatform("photos");

const saved = async (name: string, bytes: Buffer) => {
  const path = join(platform.home, name);
  await writeFile(path, bytes);
  return path;
};

describe("fit … photo <file>", () => {
  it("logs a console photo as a workout, printing what was read and what was logged; --json is the API's answer", async () => {
    const { api, fit, json } = await platform.person();
    const photo = await saved("console.jpg", await consolePhoto({ kind: "treadmill", durationS: 1812, distanceKm: 5.02, kcal: 320, avgHr: 145 }, { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 31 }));
    const run = await fit("workouts", "photo", photo, "--text", "treadmill intervals", "--date", "2026-11-20");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Read \(ocr, \d+ % sure\): .*5\.02/m);
    expect(run.stdout).toMatch(/^Logged run: 5\.02 km in 30:12, 320 kcal — "Run 5\.02 km" at 2026-11-20 /m);
    const logged = await json("workouts", "photo", photo, "--date", "2026-11-21");
    expect(logged).toMatchObject({ source: "manual", durationS: 1812, read: { source: "ocr" } });
    expect((await api.get("/api/workouts")).body.items).toHaveLength(2);
  });

  it("logs a label for the servings eaten, and says what was read and what is missing when it cannot", async () => {
    const { fit, json } = await platform.person();
    const us = await saved("us.png", await labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 32 }));
    const run = await fit("food", "photo", us, "--meal", "lunch", "--servings", "2", "--name", "Granola", "--date", "2026-11-20");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Read \(ocr, /m);
    expect(run.stdout).toMatch(/^Logged Granola: 240 kcal, 10 g protein \(lunch, 2026-11-20\) \(estimate 192–288 kcal, ocr\)/m);
    const eu = await saved("eu.jpg", await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 33 }));
    expect((await json("food", "photo", eu, "--grams", "40", "--date", "2026-11-20")).items[0]).toMatchObject({ kcal: 100, proteinG: 3.2 });
    const refused = await fit("food", "photo", eu, "--meal", "lunch", "--date", "2026-11-20");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/grams eaten.*read: .*1046 kJ/s);
    expect((await fit("food", "photo", eu, "--grams", "40", "--servings", "1")).code).toBe(2);
    expect((await fit("food", "photo", join(platform.home, "missing.jpg"), "--grams", "40")).stderr).toMatch(/ENOENT/);
  });
});
