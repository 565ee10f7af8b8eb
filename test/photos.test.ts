import { readFile } from "node:fs/promises";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FoodFromPhoto, PHOTO_FILE_LIMIT, WorkoutFromPhoto } from "@fit/contracts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const jpeg = { "content-type": "image/jpeg" };
const crc32 = (bytes: Buffer) => {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
};
/** A decompression bomb: a PNG a few hundred bytes long whose header declares 40 000 × 40 000 pixels. */
const bombPng = () => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40_000, 0);
  header.writeUInt32BE(40_000, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.alloc(40_001 * 4))), chunk("IEND", Buffer.alloc(0))]);
};

describe("photographed logs, read on-device", () => {
  it("logs a console photo as a manual workout ending when the photo was taken, and echoes no EXIF", async () => {
    const api = client(system.url, (await system.account()).key);
    const photo = await consolePhoto(
      { kind: "treadmill", durationS: 1812, distanceKm: 5.02, kcal: 320, avgHr: 145 },
      {
        font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 1,
        exif: { IFD2: { DateTimeOriginal: "2026:11:20 18:30:12", OffsetTimeOriginal: "+02:00" }, IFD0: { Make: "SecretPhoneMaker" } },
      },
    );
    const response = await api.post("/api/workouts/photo", photo, jpeg);
    expect(response.status).toBe(200);
    const workout = WorkoutFromPhoto.parse(response.body);
    expect(workout).toMatchObject({ source: "manual", activityType: "run", durationS: 1812, distanceM: 5020, energyKcal: 320, avgHr: 145, energyEstimate: null });
    expect(workout.read).toMatchObject({ source: "ocr", lowConfidence: [] });
    expect(workout.read.text).toContain("5.02");
    expect(workout.description).toBe("Run 5.02 km · 30:12 · 320 kcal · avg HR 145, from a photo");
    // Taken at 18:30:12 at UTC+2 as the session ended: it started 30:12 earlier, 16:00:00 UTC.
    expect(workout.startedAt).toBe(Date.parse("2026-11-20T16:00:00Z"));
    expect(JSON.stringify(response.body)).not.toContain("SecretPhoneMaker");
    const { read: _read, ...stored } = response.body;
    expect((await api.get(`/api/workouts/${workout.id}`)).body).toEqual(stored);
  });

  it("places the workout at the time the user's words give, over the photo's capture time", async () => {
    const api = client(system.url, (await system.account()).key);
    const photo = await consolePhoto(
      { kind: "bike", durationS: 2400, distanceKm: 16.4, kcal: 410, avgHr: 138 },
      { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 6, exif: { IFD2: { DateTimeOriginal: "2026:11:20 18:30:12", OffsetTimeOriginal: "+02:00" } } },
    );
    // Read as /api/workouts/describe reads "yesterday 7am": the day before `date`, at 07:00 in the client's time zone (UTC−5).
    const response = await api.post(`/api/workouts/photo?text=${encodeURIComponent("spin class yesterday 7am")}&date=2026-11-20&tz=300`, photo, jpeg);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ durationS: 2400, description: "spin class yesterday 7am", read: { source: "ocr" } });
    expect(response.body.startedAt).toBe(Date.parse("2026-11-19T12:00:00Z"));
  });

  it("logs a US label for the servings eaten and an EU label for the grams eaten, each with its range and source ocr", async () => {
    const api = client(system.url, (await system.account()).key);
    const us = await labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 2 });
    const usLogged = await api.post("/api/nutrition/photo?date=2026-11-20&meal=breakfast&servings=2&name=Granola", us, jpeg);
    expect(usLogged.status).toBe(200);
    const [usItem] = FoodFromPhoto.parse(usLogged.body).items;
    expect(usItem).toMatchObject({ name: "Granola", meal: "breakfast", kcal: 240, proteinG: 10, estimate: { source: "ocr", kcal: { low: 192, high: 288 } } });

    const eu = await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Serif", sizePt: 24, degradation: CLEAN, seed: 3 });
    const euLogged = await api.post("/api/nutrition/photo?date=2026-11-20&grams=40", eu, { "content-type": "image/jpeg" });
    expect(euLogged.status).toBe(200);
    expect(euLogged.body.items[0]).toMatchObject({ name: "Food from a label", kcal: 100, proteinG: 3.2 });
    expect(euLogged.body.read.text).toMatch(/1046 kJ/);
  });

  // console.heic (11.7 KB): consolePhoto({ kind: "bike", durationS: 2712, distanceKm: 18.35, kcal: 505, avgHr: 141 },
  // { font: "DejaVu Sans", sizePt: 26, degradation: CLEAN, seed: 79, exif: { IFD2: { DateTimeOriginal: "2026:11:21 07:45:30",
  // OffsetTimeOriginal: "-05:00" }, IFD0: { Make: "SecretPhoneMaker" } } }) written as a JPEG, then `heif-enc -q 45`
  // (Debian's libheif-examples 1.15, x265), which keeps the JPEG's EXIF. Made once: the tests need no HEVC encoder.
  const heic = () => readFile(new URL("./support/photos/console.heic", import.meta.url));

  it("reads a HEIC photo (decoded by libheif on its own thread) with its EXIF capture time, and refuses an AVIF and a HEIC bomb", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/workouts/photo", await heic(), { "content-type": "image/heic" });
    expect(response.status).toBe(200);
    const workout = WorkoutFromPhoto.parse(response.body);
    expect(workout).toMatchObject({ activityType: "ride", durationS: 2712, distanceM: 18_350, energyKcal: 505, avgHr: 141 });
    // Taken at 07:45:30 at UTC−5 as the session ended: it started 45:12 earlier, 12:00:18 UTC.
    expect(workout.startedAt).toBe(Date.parse("2026-11-21T12:00:18Z"));
    expect(JSON.stringify(response.body)).not.toContain("SecretPhoneMaker");

    // The header's image size (its `ispe` boxes) says 40 000 × 40 000: refused before libheif decodes a pixel.
    const bomb = await heic();
    for (let ispe = bomb.indexOf("ispe"); ispe !== -1; ispe = bomb.indexOf("ispe", ispe + 1)) {
      bomb.writeUInt32BE(40_000, ispe + 8);
      bomb.writeUInt32BE(40_000, ispe + 12);
    }
    const refused = await api.post("/api/workouts/photo", bomb, { "content-type": "image/heic" });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatch(/megapixels/);
    // AVIF is HEIF too, but not HEVC: not taken.
    const avif = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#fff" } }).avif().toBuffer();
    expect((await api.post("/api/workouts/photo", avif, { "content-type": "image/heif" })).status).toBe(415);
  });

  it("answers 422 with what was read and what is missing, and logs nothing", async () => {
    const api = client(system.url, (await system.account()).key);
    const eu = await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 4 });
    // Per 100 g, and no grams given: the amount eaten cannot be known.
    const noAmount = await api.post("/api/nutrition/photo?date=2026-11-21", eu, jpeg);
    expect(noAmount.status).toBe(422);
    expect(noAmount.body.error).toMatch(/grams eaten/);
    expect(noAmount.body.detail).toMatch(/read: .*Energy 1046 kJ/);
    // A label is not a workout: no duration on it.
    const notAWorkout = await api.post("/api/workouts/photo", eu, jpeg);
    expect(notAWorkout.status).toBe(422);
    expect(notAWorkout.body.error).toMatch(/no duration/);
    expect((await api.get("/api/nutrition/days/2026-11-21")).body.items ?? []).toEqual([]);
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  });

  it("refuses a decompression bomb, an oversized body and what is not a JPEG, PNG or WebP, before reading anything", async () => {
    const api = client(system.url, (await system.account()).key);
    const bomb = await api.post("/api/workouts/photo", bombPng(), { "content-type": "image/png" });
    expect(bomb.status).toBe(413);
    expect(bomb.body.error).toMatch(/megapixels/);
    expect((await api.post("/api/nutrition/photo?grams=10", bombPng(), { "content-type": "image/png" })).status).toBe(413);
    expect((await api.post("/api/workouts/photo", Buffer.alloc(PHOTO_FILE_LIMIT + 1), jpeg)).status).toBe(413);
    expect((await api.post("/api/workouts/photo", "TIME 30:12", { "content-type": "text/plain" })).status).toBe(415);
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    expect((await api.post("/api/workouts/photo", gif, { "content-type": "image/png" })).status).toBe(415);
    expect((await api.post("/api/workouts/photo", { text: "ran" })).status).toBe(415);
    expect((await api.post("/api/workouts/photo", Buffer.from("\xff\xd8\xff\xe0 not really a jpeg", "latin1"), jpeg)).status).toBe(415);
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  });

  it("keeps answering other requests while photos are read, a HEIC decoded meanwhile", async () => {
    const api = client(system.url, (await system.account()).key);
    const photo = await consolePhoto({ kind: "bike", durationS: 2400, distanceKm: 16.4, kcal: 410, avgHr: 138 }, { font: "DejaVu Sans", sizePt: 30, degradation: CLEAN, seed: 5 });
    let reading = true;
    const read = Promise.all([api.post("/api/workouts/photo", photo, jpeg), api.post("/api/workouts/photo", await heic(), { "content-type": "image/heic" })]).finally(
      () => (reading = false),
    );
    const answered: number[] = [];
    while (reading) {
      const started = performance.now();
      expect((await api.get("/api/workouts")).status).toBe(200);
      answered.push(performance.now() - started);
    }
    expect((await read).map((response) => response.status)).toEqual([200, 200]);
    expect(answered.length).toBeGreaterThan(3);
    expect(Math.max(...answered)).toBeLessThan(500);
  });
});
