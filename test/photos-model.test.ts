import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import sharp from "sharp";
import { FoodFromPhoto, WorkoutFromPhoto } from "@fit/contracts";
import { imageInputs, startFakeOpenAi, type ChatRequest, type FakeOpenAi } from "@fit/testing";
import { requestKind } from "./support/coach-model-requests.ts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

const MODEL = "fake-vision-model";
const TIMEOUT_MS = 1500;
const jpeg = { "content-type": "image/jpeg" };

/** What the model answers for a console screen and a label, unless a test says otherwise. */
const SCREEN = {
  text: "TREADMILL WORKOUT SUMMARY\nTIME 30:12\nDISTANCE 5.02 km\nCALORIES 320\nAVG HR 145 bpm",
  confidence: 93, unsure: [] as string[], activityType: "run", durationS: 1812, distanceM: 5020, energyKcal: 320, avgHr: 145,
};
const LABEL = {
  text: "Nutrition Facts\nServing size 2/3 cup (30g)\nCalories 120\nTotal Fat 8g\nProtein 5g",
  confidence: 90, unsure: [] as string[], basis: "serving", kcal: 120, proteinG: 5, fatG: 8, carbsG: null, servingG: 30,
};

let fake: FakeOpenAi;
let system: System;
let screenPhoto: Buffer;
let labelPicture: Buffer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  [system, screenPhoto, labelPicture] = await Promise.all([
    startSystem({
      databaseUrl: inject("databaseUrl"),
      natsUrl: inject("natsUrl"),
      env: { COACH_MODEL_URL: fake.url, COACH_MODEL: MODEL, COACH_MODEL_TIMEOUT_MS: String(TIMEOUT_MS), COACH_MODEL_RETRIES: "0" },
    }),
    consolePhoto(
      { kind: "treadmill", durationS: 1812, distanceKm: 5.02, kcal: 320, avgHr: 145 },
      {
        font: "DejaVu Sans", sizePt: 26, degradation: CLEAN, seed: 11,
        exif: { IFD2: { DateTimeOriginal: "2026:11:20 18:30:12", OffsetTimeOriginal: "+02:00" }, IFD0: { Make: "SecretPhoneMaker" } },
      },
    ),
    labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 12 }),
  ]);
});
afterAll(async () => {
  await system?.stop();
  await fake?.close();
});

const answer = (screen: object, label: object) =>
  fake.setFallback((request) => ({ reply: JSON.stringify(requestKind(request) === "screen" ? screen : label) }));
beforeEach(() => {
  fake.reset();
  answer(SCREEN, LABEL);
});

const newApi = async () => client(system.url, (await system.account()).key);

const routes = [
  { name: "workouts", kind: "screen", post: (api: ReturnType<typeof client>, query = "") => api.post(`/api/workouts/photo${query}`, screenPhoto, jpeg) },
  { name: "nutrition", kind: "label", post: (api: ReturnType<typeof client>, query = "") => api.post(`/api/nutrition/photo?date=2026-11-20${query}`, labelPicture, jpeg) },
] as const;
const nothingLogged = async (api: ReturnType<typeof client>) => {
  expect((await api.get("/api/workouts")).body.items).toEqual([]);
  expect((await api.get("/api/nutrition/items?date=2026-11-20")).body).toEqual([]);
};

/** The one image a request sends, decoded: it must be a data: URL of a JPEG. */
const sentImage = async (request: ChatRequest) => {
  const images = imageInputs(request);
  expect(images).toHaveLength(1);
  const [, base64] = /^data:image\/jpeg;base64,(.+)$/.exec(images[0]!) ?? [];
  expect(base64).toBeDefined();
  const bytes = Buffer.from(base64!, "base64");
  return { bytes, header: await sharp(bytes).metadata() };
};

describe("photographed logs read by the coach's model", () => {
  it("sends the workout photo as an image input without its EXIF, and logs what the model read with its provenance", async () => {
    const api = await newApi();

    const response = await routes[0].post(api);

    expect(response.status).toBe(200);
    const workout = WorkoutFromPhoto.parse(response.body);
    expect(workout).toMatchObject({ source: "manual", activityType: "run", durationS: 1812, distanceM: 5020, energyKcal: 320, avgHr: 145 });
    expect(workout.read).toEqual({ source: `model:${MODEL}`, text: SCREEN.text, confidence: 93, lowConfidence: [] });
    // No words: placed by the photo's capture time (18:30:12 at UTC+2) less the session.
    expect(workout.startedAt).toBe(Date.parse("2026-11-20T16:00:00Z"));
    expect(fake.received).toHaveLength(1);
    const request = fake.received[0]!.body;
    expect(request.model).toBe(MODEL);
    expect(requestKind(request)).toBe("screen");
    expect(request.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const { bytes, header } = await sentImage(request);
    expect(header).toMatchObject({ format: "jpeg" });
    expect(header.exif).toBeUndefined();
    expect(Math.max(header.width, header.height)).toBeLessThanOrEqual(1568);
    expect(bytes.includes("SecretPhoneMaker")).toBe(false);
    // One metered call, its tokens counting the image.
    const usage = (await api.get("/api/coach/usage")).body;
    expect(usage).toMatchObject({ calls: 1, estimator: `model:${MODEL}` });
    expect(usage.tokens).toBeGreaterThan(765);
  });

  it("reads a label through the model, logs it with source model:<name>, and reads the same photo once", async () => {
    const api = await newApi();

    const first = await routes[1].post(api, "&servings=2&name=Granola");
    const again = await routes[1].post(api, "&servings=1");

    expect([first.status, again.status]).toEqual([200, 200]);
    const logged = FoodFromPhoto.parse(first.body);
    expect(logged.items[0]).toMatchObject({ name: "Granola", kcal: 240, proteinG: 10, fatG: 16, estimate: { source: `model:${MODEL}`, kcal: { low: 192, high: 288 } } });
    expect(logged.read).toMatchObject({ source: `model:${MODEL}`, text: LABEL.text });
    expect(again.body.items[0]).toMatchObject({ kcal: 120, proteinG: 5 });
    expect(fake.received.map((r) => requestKind(r.body))).toEqual(["label"]);
    const { header } = await sentImage(fake.received[0]!.body);
    expect(header.exif).toBeUndefined();
  });

  it("places the workout at the time the words give, over the photo's capture time", async () => {
    const api = await newApi();
    const response = await routes[0].post(api, `?text=${encodeURIComponent("treadmill yesterday 7am, legs heavy")}&date=2026-11-20&tz=0`);
    expect(response.status).toBe(200);
    expect(response.body.startedAt).toBe(Date.parse("2026-11-19T07:00:00Z"));
    expect(response.body.description).toBe("treadmill yesterday 7am, legs heavy");
    // Words without a time leave the capture time in place.
    const untimed = await routes[0].post(api, `?text=${encodeURIComponent("legs heavy")}&tz=0`);
    expect(untimed.body.startedAt).toBe(Date.parse("2026-11-20T16:00:00Z"));
  });

  it("flags what the model was unsure of and leaves out a value that does not fit the others", async () => {
    answer({ ...SCREEN, unsure: ["energyKcal"], avgHr: 400 }, LABEL);
    const response = await routes[0].post(await newApi());
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ energyKcal: 320, avgHr: null });
    expect(response.body.read.lowConfidence.sort()).toEqual(["avgHr", "energyKcal"]);
  });

  for (const route of routes) {
    describe(`${route.name}: failures map as for text`, () => {
      it("answers 502 with the upstream status after a 5xx, and logs nothing", async () => {
        const api = await newApi();
        fake.setFallback(() => ({ status: 503, body: { error: { message: "overloaded", type: "server_error", param: null, code: "overloaded" } } }));
        const response = await route.post(api);
        expect(response.status).toBe(502);
        expect(response.body.detail).toMatch(/^upstream status 503, code overloaded, request req_[0-9a-f]+$/);
        await nothingLogged(api);
      });

      it("answers 504 soon after the model's deadline when it hangs", async () => {
        fake.setFallback(() => ({ hang: true }));
        const started = Date.now();
        const response = await route.post(await newApi());
        expect(response.status).toBe(504);
        expect(response.body.detail).toBe(`no answer within ${TIMEOUT_MS} ms`);
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
      });

      it("repairs one malformed answer, then answers 502 when the repair is malformed too", async () => {
        const api = await newApi();
        fake.enqueue({ reply: "not json" });
        const repaired = await route.post(api);
        expect(repaired.status).toBe(200);
        const [first, repair] = fake.received.map((r) => r.body);
        expect(repair!.messages.slice(0, first!.messages.length)).toEqual(first!.messages);
        expect(repair!.messages).toContainEqual({ role: "assistant", content: "not json" });

        fake.reset();
        fake.setFallback(() => ({ reply: JSON.stringify({ text: "TIME", confidence: "high" }) }));
        const failed = await route.post(await newApi());
        expect(failed.status).toBe(502);
        expect(failed.body.detail).toBe("malformed answer after one repair attempt");
        expect(fake.received).toHaveLength(2);
      });

      it("answers 422 with what was read and what is missing when the model's answer lacks a needed field, or is unsure of all of it", async () => {
        const api = await newApi();
        answer({ ...SCREEN, durationS: null }, { ...LABEL, proteinG: null });
        const missing = await route.post(api);
        expect(missing.status).toBe(422);
        expect(missing.body.error).toMatch(route.kind === "screen" ? /no duration/ : /missing protein/);
        expect(missing.body.detail).toContain(JSON.stringify(route.kind === "screen" ? SCREEN.text : LABEL.text).slice(1, 30));

        answer({ ...SCREEN, confidence: 20 }, { ...LABEL, confidence: 20 });
        const unsure = await route.post(await newApi());
        expect(unsure.status).toBe(422);
        await nothingLogged(api);
      });
    });
  }
});
