// The only code that calls the gateway: the public API under /api, with the session cookie (same origin).
import type * as T from "./types.ts";

/** An answer in the error envelope; `field` is the request field its message names, if any. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly detail?: string) {
    super(message);
  }

  /** The contracts' messages start with the field they are about ("weightKg must be between 9 and 320 kg"). */
  fieldIn(fields: readonly string[]): string | undefined {
    const first = /^[A-Za-z]+/.exec(this.message)?.[0];
    return first && fields.includes(first) ? first : undefined;
  }
}

/** Waits before each retry of a keyed write: a service restarting is usually back within seconds. */
const RETRY_DELAYS_MS = [250, 1_000, 2_500];
const RETRIED_STATUSES = new Set([502, 503, 504]);

/** A fresh Idempotency-Key (getRandomValues works outside a secure context too, unlike randomUUID). */
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * A Blob is sent as it is, under its own type (an activity file); anything else as JSON.
 * Every error this module throws is an ApiError, a network failure included. A write under `idempotencyKey` is
 * sent again with that same key when the server cannot be reached or answers 502, 503 or 504, so one whose answer
 * was lost is not stored twice (docs/decisions/0062-idempotency-keys.md); nothing else is retried.
 */
const call = async <R>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<R> => {
  const send = () =>
    fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        ...(body === undefined ? {} : { "content-type": body instanceof Blob ? body.type : "application/json" }),
        ...(idempotencyKey === undefined ? {} : { "idempotency-key": `"${idempotencyKey}"` }),
      },
      body: body === undefined ? null : body instanceof Blob ? body : JSON.stringify(body),
    }).catch(() => undefined);
  let response = await send();
  const retried = (attempt: number) =>
    idempotencyKey !== undefined && attempt < RETRY_DELAYS_MS.length && (!response || RETRIED_STATUSES.has(response.status));
  for (let attempt = 0; retried(attempt); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    response = await send();
  }
  if (!response) throw new ApiError(0, "the server could not be reached; check the connection and retry");
  const text = (await response.text()) || "null";
  if (!response.ok) throw refusal(response.status, text);
  return JSON.parse(text) as R;
};

const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : "";
};

/** An error answer's envelope as an ApiError. */
const refusal = (status: number, text: string) => {
  let envelope: { error?: string; detail?: string; message?: string } = {};
  try {
    envelope = (JSON.parse(text) ?? {}) as typeof envelope;
  } catch {
    // Not JSON (a proxy's page): the status is all there is.
  }
  return new ApiError(status, envelope.error ?? envelope.message ?? `the server answered ${status}`, envelope.detail);
};

/**
 * A file sent as the raw body with `onProgress` told the share sent so far: XMLHttpRequest, because fetch reports
 * no upload progress. The browser streams the File from disk, so its size does not matter here. Not retried:
 * an upload is not keyed, and a second one would be a second import.
 */
const upload = <R>(path: string, file: File, contentType: string, onProgress: (share: number) => void) =>
  new Promise<R>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", path);
    request.withCredentials = true;
    request.setRequestHeader("content-type", contentType);
    request.upload.onprogress = (event) => onProgress(event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve(JSON.parse(request.responseText) as R);
      else reject(refusal(request.status, request.responseText));
    };
    request.onerror = () => reject(new ApiError(0, "the server could not be reached; check the connection and retry"));
    request.send(file);
  });

type Ok = { ok: true };
type Created = { ok: true; id: string };

/** One intended write: a key of its own, resent on its retries. */
const create = <R>(path: string, body: unknown) => call<R>("POST", path, body, newKey());

export const api = {
  session: () => call<T.SessionView>("GET", "/api/auth/get-session"),
  sendMagicLink: (email: string) => call<unknown>("POST", "/api/auth/sign-in/magic-link", { email, callbackURL: "/" }),
  providerSignIn: (provider: string) =>
    call<{ url?: string }>("POST", "/api/auth/sign-in/social", { provider, callbackURL: "/", errorCallbackURL: "/sign-in" }),
  signOut: () => call<unknown>("POST", "/api/auth/sign-out", {}),

  dashboard: (date: string) => call<T.Dashboard>("GET", `/api/dashboard${query({ date })}`),

  weights: (range: { from?: number; to?: number; cursor?: string; limit?: number } = {}) =>
    call<T.WeightPage>("GET", `/api/weight${query(range)}`),
  logWeight: (body: T.WeightCreate) => create<Created>("/api/weight", body),
  editWeightNote: (id: string, note: string | null) => call<Ok>("PATCH", `/api/weight/${id}`, { note }),
  deleteWeight: (id: string) => call<Ok>("DELETE", `/api/weight/${id}`),

  measurements: (range: { from?: number; to?: number; cursor?: string; limit?: number; site?: T.MeasurementSite } = {}) =>
    call<T.MeasurementPage>("GET", `/api/measurements${query(range)}`),
  logMeasurement: (body: { site: T.MeasurementSite; valueCm: number; ts?: number }) => create<Created>("/api/measurements", body),
  deleteMeasurement: (id: string) => call<Ok>("DELETE", `/api/measurements/${id}`),

  targets: () => call<T.Targets | null>("GET", "/api/targets"),
  putTargets: (body: T.TargetsInput) => call<unknown>("PUT", "/api/targets", body),

  insights: (date: string) => call<T.Insights>("GET", `/api/insights${query({ date })}`),
  adoptSuggestedTargets: () => call<T.Targets>("POST", "/api/insights/adopt-targets"),

  profile: () => call<T.Profile>("GET", "/api/profile"),
  putProfile: (body: T.ProfileInput) => call<T.Profile>("PUT", "/api/profile", body),

  dailyTotals: () => call<T.DailyTotal[]>("GET", "/api/nutrition"),
  foodItems: (date: string) => call<T.FoodItem[]>("GET", `/api/nutrition/items${query({ date })}`),
  logFood: (body: T.FoodItemCreate) => create<T.FoodItem>("/api/nutrition/items", body),
  editFood: (id: string, patch: T.FoodItemPatch) => call<T.FoodItem>("PATCH", `/api/nutrition/items/${id}`, patch),
  deleteFood: (id: string) => call<Ok>("DELETE", `/api/nutrition/items/${id}`),
  copyFood: (body: T.FoodItemCopy) => create<T.FoodItem[]>("/api/nutrition/copy", body),

  searchFoods: (q: string, limit = 10) => call<T.FoodMatch[]>("GET", `/api/foods${query({ q, limit })}`),
  recentFoods: (limit: number) => call<T.RecentFood[]>("GET", `/api/foods/recent${query({ limit })}`),
  food: (id: string) => call<T.Food>("GET", `/api/foods/${encodeURIComponent(id)}`),
  foodByBarcode: (code: string) => call<T.Food>("GET", `/api/foods/barcode/${encodeURIComponent(code)}`),
  customFoods: () => call<T.CustomFood[]>("GET", "/api/custom-foods"),
  createCustomFood: (body: T.CustomFoodInput) => create<T.CustomFood>("/api/custom-foods", body),
  editCustomFood: (id: string, patch: T.CustomFoodPatch) => call<T.CustomFood>("PATCH", `/api/custom-foods/${encodeURIComponent(id)}`, patch),
  deleteCustomFood: (id: string) => call<Ok>("DELETE", `/api/custom-foods/${encodeURIComponent(id)}`),
  recipes: () => call<T.Recipe[]>("GET", "/api/recipes"),
  createRecipe: (body: T.RecipeInput) => create<T.Recipe>("/api/recipes", body),
  deleteRecipe: (id: string) => call<Ok>("DELETE", `/api/recipes/${encodeURIComponent(id)}`),

  // A photo read but not logged (docs/decisions/0085-photo-previews-saved-through-create-routes.md): not keyed, nothing is written.
  previewWorkoutPhoto: (photo: Blob, options: { tz: number }) => call<T.WorkoutPhotoPreview>("POST", `/api/workouts/photo/preview${query(options)}`, photo),
  previewFoodPhoto: (photo: Blob, amount: { servings?: number; grams?: number }) =>
    call<T.FoodPhotoPreview>("POST", `/api/nutrition/photo/preview${query(amount)}`, photo),
  estimateFood: (text: string) => call<T.FoodEstimated>("POST", "/api/nutrition/estimate", { text }),

  workouts: (page: { cursor?: string; limit?: number } = {}) => call<T.WorkoutPage>("GET", `/api/workouts${query(page)}`),
  workout: (id: string) => call<T.Workout>("GET", `/api/workouts/${id}`),
  workoutRoute: (id: string) => call<T.WorkoutRoute>("GET", `/api/workouts/${id}/route`),
  describeWorkout: (body: T.WorkoutDescribe) => create<T.Workout>("/api/workouts/describe", body),
  importWorkout: (file: Blob) => create<T.WorkoutImported>("/api/workouts/import", file),
  createWorkout: (body: T.WorkoutCreate) => create<T.Workout>("/api/workouts", body),
  editWorkout: (id: string, patch: T.WorkoutPatch) => call<T.Workout>("PATCH", `/api/workouts/${id}`, patch),
  deleteWorkout: (id: string) => call<Ok>("DELETE", `/api/workouts/${id}`),

  startImport: (file: File, contentType: string, options: { tz?: string; unit?: "kg" | "lb" }, onProgress: (share: number) => void) =>
    upload<T.ImportSummary>(`/api/imports${query({ ...options, name: file.name })}`, file, contentType, onProgress),
  imports: () => call<{ items: T.ImportSummary[] }>("GET", "/api/imports"),
  importStatus: (id: string) => call<T.ImportSummary>("GET", `/api/imports/${id}`),
  deleteImport: (id: string) => call<T.ImportSummary>("DELETE", `/api/imports/${id}`),

  askCoach: (body: T.AgentRequest) => call<T.AgentReply>("POST", "/api/agent", body),

  keys: () => call<T.ApiKey[]>("GET", "/api/keys"),
  createKey: (body: T.ApiKeyCreate) => call<T.ApiKeyCreated>("POST", "/api/keys", body),
  revokeKey: (id: string) => call<Ok>("DELETE", `/api/keys/${id}`),
  sessions: () => call<T.SessionInfo[]>("GET", "/api/sessions"),
  revokeSession: (id: string) => call<Ok>("DELETE", `/api/sessions/${id}`),
  revokeOtherSessions: (endConnectedApps: boolean) =>
    call<{ ok: true; revoked: number; connectedApps: number }>("POST", `/api/sessions/revoke-others${endConnectedApps ? "?connectedApps=revoke" : ""}`),
  connectedApps: () => call<{ items: T.ConnectedApp[] }>("GET", "/api/connected-apps"),
  revokeConnectedApp: (clientId: string) => call<Ok>("DELETE", `/api/connected-apps/${encodeURIComponent(clientId)}`),
  deleteAccount: () => call<Ok>("DELETE", "/api/account"),
};
