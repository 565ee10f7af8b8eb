import { client } from "../http.ts";
import { NUTELLA } from "../open-food-facts.ts";
import { signIn } from "../sign-in.ts";
import { waitFor } from "../wait.ts";
import type { Resource } from "./requests.ts";
import { DATES } from "./schema.ts";

type Api = ReturnType<typeof client>;

const created = async (response: Promise<{ status: number; body: { id?: string; workout?: { id?: string } } }>) => {
  const { status, body } = await response;
  const id = body.id ?? body.workout?.id;
  if (status !== 200 || !id) throw new Error(`seeding failed: ${status} ${JSON.stringify(body)}`);
  return id;
};

/** Gives an account something of every kind, on the days the hostile requests use, and returns the ids. */
export const seed = async (api: Api, count: number): Promise<Record<Resource, string[]>> => {
  // Foods are not made by an account: the database ships them (bananas, roasted chicken breast, white rice, egg),
  // and the stand-in of Open Food Facts holds the barcodes' products (test/support/open-food-facts.ts).
  const barcodes = [NUTELLA.code, NUTELLA.code.slice(1), "0".repeat(8)];
  const foods = ["usda:173944", "usda:171477", "usda:168878", "usda:171287", `off:${NUTELLA.code}`];
  const ids: Record<Resource, string[]> = {
    weights: [], measurements: [], items: [], workouts: [], keys: [], sessions: [], apps: [], foods, barcodes, customFoods: [], recipes: [], imports: [],
  };
  const day = Date.parse(`${DATES[0]}T08:00:00Z`);
  for (let i = 0; i < count; i++) {
    ids.weights.push(await created(api.post("/api/weight", { weightKg: 80 + i / 10, note: `seed ${i}`, ts: day + i * 3_600_000 })));
    ids.measurements.push(await created(api.post("/api/measurements", { site: i % 2 ? "waist" : "shoulders", valueCm: 80 + i, ts: day + i })));
    const item = { date: DATES[i % DATES.length], name: `seed ${i}`, kcal: 100 + i, proteinG: 10, meal: "lunch", note: "n" };
    ids.items.push(await created(api.post("/api/nutrition/items", item)));
    const workout = { source: "watch_device", externalId: `seed-${i}`, activityType: "run", startedAt: day + i * 3_600_000, durationS: 1800 + i, distanceM: 5000 };
    ids.workouts.push(await created(api.post("/api/workouts/import", workout)));
    ids.customFoods.push(await created(api.post("/api/custom-foods", { name: `seed food ${i}`, per: "serving", servingG: 30 + i, kcal: 100 + i, proteinG: 5 })));
    const recipe = { name: `seed recipe ${i}`, servings: 2, ingredients: [{ foodId: foods[i % foods.length], portion: { grams: 100 + i } }] };
    ids.recipes.push(await created(api.post("/api/recipes", recipe)));
  }
  // Imports of one reading each, finished before the state is read, so no later change of theirs shows in it.
  for (let i = 0; i < count; i++) {
    const started = await api.post("/api/imports", { text: `Date,"Weight (kg)"\n${DATES[1]} 0${i}:30:00,7${i}.5\n` });
    if (started.status !== 202) throw new Error(`seeding an import failed: ${started.status} ${JSON.stringify(started.body)}`);
    ids.imports.push(started.body.id as string);
  }
  await waitFor("the seeded imports to finish", async () =>
    ((await api.get("/api/imports")).body.items as { state: string }[]).every((i) => i.state === "done") ? true : undefined);
  const targets = await api.put("/api/targets", { goalWeightKg: 75, startWeightKg: 85, dailyKcalTarget: 2200, proteinTargetG: 150 });
  if (targets.status !== 200) throw new Error(`seeding targets failed: ${targets.status}`);
  const profile = await api.put("/api/profile", { heightCm: 178, birthYear: 1990, sex: "female", activityLevel: "light", units: "imperial", timeZone: "Europe/Berlin" });
  if (profile.status !== 200) throw new Error(`seeding the profile failed: ${profile.status}`);
  return ids;
};

/**
 * Signs the account in, then makes `count` keys and `count` more sessions of its own for the hostile requests to
 * revoke. The session it answers (as a cookie) is not among them, nor is any key the test already holds.
 */
export const seedCredentials = async (baseUrl: string, email: string, count: number) => {
  const cookie = await signIn(baseUrl, email);
  const headers = { cookie, origin: new URL(baseUrl).origin };
  const api = client(baseUrl);
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push(await created(api.post("/api/keys", { name: `seed ${i}` }, headers)));
  for (let i = 0; i < count; i++) await signIn(baseUrl, email);
  const listed = await api.get("/api/sessions", headers);
  if (listed.status !== 200) throw new Error(`listing sessions failed: ${listed.status}`);
  const sessions = (listed.body as { id: string; current: boolean }[]).filter((s) => !s.current).map((s) => s.id);
  return { cookie, keys, sessions };
};

/** Every page of a keyset-paginated list. */
const allPages = async (api: Api, path: string) => {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = await api.get(`${path}?limit=200${query}`);
    if (page.status !== 200) throw new Error(`reading ${path} failed: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...(page.body.items as unknown[]));
    cursor = page.body.nextCursor as string | null;
  } while (cursor);
  return items;
};

const read = async (api: Api, path: string) => {
  const response = await api.get(path);
  if (response.status !== 200) throw new Error(`reading ${path} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as unknown;
};

/** Everything an account can read about itself, through the same public API the hostile requests use. */
export const snapshot = async (api: Api) => ({
  weights: await allPages(api, "/api/weight"),
  measurements: await allPages(api, "/api/measurements"),
  targets: await read(api, "/api/targets"),
  profile: await read(api, "/api/profile"),
  items: await Promise.all(DATES.map((date) => read(api, `/api/nutrition/items?date=${date}`))),
  totals: await read(api, "/api/nutrition"),
  workouts: await allPages(api, "/api/workouts"),
  customFoods: await read(api, "/api/custom-foods"),
  recipes: await read(api, "/api/recipes"),
  dashboard: await read(api, `/api/dashboard?date=${DATES[0]}`),
});
