import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FoodItem, FoodPhotoPreview, Workout, WorkoutPhotoPreview } from "@fit/contracts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const jpeg = { "content-type": "image/jpeg" };

// docs/decisions/0085-photo-previews-saved-through-create-routes.md: a photo is read without logging, corrected, then saved.
describe("a photo read as a preview, corrected, then saved", () => {
  it("previews a console photo without logging it, then saves the corrected workout through POST /api/workouts", async () => {
    const api = client(system.url, (await system.account()).key);
    const photo = await consolePhoto({ kind: "bike", durationS: 2400, distanceKm: 16.4, kcal: 410, avgHr: 138 }, { font: "DejaVu Sans", sizePt: 30, degradation: CLEAN, seed: 11 });
    const previewed = await api.post("/api/workouts/photo/preview?text=spin%20class", photo, jpeg);
    expect(previewed.status).toBe(200);
    const preview = WorkoutPhotoPreview.parse(previewed.body);
    expect(preview).toMatchObject({ source: "manual", activityType: "ride", durationS: 2400, distanceM: 16_400, energyKcal: 410, avgHr: 138, description: "spin class" });
    expect(preview.read).toMatchObject({ source: "ocr", lowConfidence: [] });
    expect(previewed.body).not.toHaveProperty("id");
    expect((await api.get("/api/workouts")).body.items).toEqual([]);

    const { read: _read, source: _source, ...fields } = preview;
    const saved = await api.post("/api/workouts", { ...fields, distanceM: 16_000 });
    expect(saved.status).toBe(200);
    const workout = Workout.parse(saved.body);
    expect(workout).toMatchObject({ source: "manual", activityType: "ride", startedAt: preview.startedAt, distanceM: 16_000, energyKcal: 410, energyEstimate: null, description: "spin class" });
    expect((await api.get("/api/workouts")).body.items).toEqual([saved.body]);
  });

  it("keeps an estimated energy's range only when it is sent with energyKcal", async () => {
    const api = client(system.url, (await system.account()).key);
    const base = { activityType: "run", startedAt: Date.parse("2026-11-20T07:00:00Z"), durationS: 1800, description: "Run from a photo" };
    const estimated = await api.post("/api/workouts", { ...base, energyKcal: 300, energyEstimate: { low: 240, high: 360, source: "met:run" } });
    expect(estimated.status).toBe(200);
    expect(estimated.body).toMatchObject({ summary: "Run 30 min", energyKcal: 300, energyEstimate: { low: 240, high: 360 }, distanceM: null });
    const orphan = await api.post("/api/workouts", { ...base, energyEstimate: { low: 240, high: 360, source: "met:run" } });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toMatch(/energyEstimate goes with energyKcal/);
    expect((await api.post("/api/workouts", { ...base, startedAt: Date.now() + 3 * 86_400_000 })).status).toBe(400);
  });

  it("previews a label's item without logging it, then logs it through POST /api/nutrition/items keeping its ocr provenance", async () => {
    const api = client(system.url, (await system.account()).key);
    const label = await labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 12 });
    const previewed = await api.post("/api/nutrition/photo/preview?servings=2&name=Granola", label, jpeg);
    expect(previewed.status).toBe(200);
    const { items: [item], read } = FoodPhotoPreview.parse(previewed.body);
    expect(item).toMatchObject({ name: "Granola", kcal: 240, proteinG: 10, kcalRange: { low: 192, high: 288 }, source: "ocr", quantity: 2, unit: "serving" });
    expect(read.text).toMatch(/120/);
    expect((await api.get("/api/nutrition/items?date=2026-11-22")).body).toEqual([]);

    const logged = await api.post("/api/nutrition/items", {
      date: "2026-11-22", meal: "lunch", name: item!.name, kcal: item!.kcal, proteinG: item!.proteinG, quantity: item!.quantity, unit: item!.unit,
      estimate: { kcal: item!.kcalRange, proteinG: item!.proteinRange, source: item!.source },
    });
    expect(logged.status).toBe(200);
    expect(FoodItem.parse(logged.body)).toMatchObject({ meal: "lunch", kcal: 240, estimate: { source: "ocr", kcal: { low: 192, high: 288 } } });
    expect((await api.post("/api/nutrition/items", { date: "2026-11-22", foodId: "usda:171287", portion: { grams: 50 }, estimate: { kcal: { low: 1, high: 2 }, proteinG: { low: 1, high: 2 }, source: "ocr" } })).status).toBe(400);
  });

  it("refuses a photo it cannot read as the log does, with what was read", async () => {
    const api = client(system.url, (await system.account()).key);
    const label = await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 13 });
    const notAWorkout = await api.post("/api/workouts/photo/preview", label, jpeg);
    expect(notAWorkout.status).toBe(422);
    expect(notAWorkout.body.detail).toMatch(/read: .*Energy 1046 kJ/);
    expect((await api.post("/api/nutrition/photo/preview", label, jpeg)).status).toBe(422);
    expect((await api.post("/api/nutrition/photo/preview", "kcal 100", { "content-type": "text/plain" })).status).toBe(415);
  });
});
