// "Log from photo" on the workouts and food screens, loaded when first shown: the photo is read without logging,
// what was read is shown to correct, and Save logs it through the ordinary create route
// (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { localDateTime } from "../dates.ts";
import { MealSelect } from "../meal-select.tsx";
import type { ActivityType, FoodPhotoPreview, FoodItem, Meal, PhotoRead, Workout, WorkoutPhotoPreview } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";
import { ACTIVITIES } from "../workout-format.ts";
import "../screens.css";

/** A refused photo: the server's message, and the text it read when it says (a 422's `detail` is `read: "…"`). */
interface Refusal {
  message: string;
  read: string | null;
}

const unquoted = (quoted: string) => {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted;
  }
};

const refusalOf = (caught: unknown): Refusal => {
  if (!(caught instanceof ApiError)) return { message: String(caught), read: null };
  const read = caught.detail?.startsWith("read: ") ? unquoted(caught.detail.slice("read: ".length)) : null;
  return { message: caught.message, read };
};

/** A phone's camera opens on the back lens; a desktop gets a file picker. A type the browser gives none is sent as JPEG: the server reads the format from the content. */
const PhotoInput = ({ id, busy, picked }: { id: string; busy: boolean; picked: (photo: Blob) => void }) => (
  <div class="dropzone">
    <label class="button secondary" for={id} aria-disabled={busy}>{busy ? "Reading the photo…" : "Take or choose a photo"}</label>
    <input
      id={id} class="visually-hidden" type="file" accept="image/*" capture="environment" disabled={busy}
      onChange={(event) => {
        const input = event.currentTarget;
        const file = input.files?.[0];
        input.value = "";
        if (file) picked(file.type ? file : new Blob([file], { type: "image/jpeg" }));
      }}
    />
  </div>
);

/** Reads a photo with `read`, keeping the photo for a second try (another amount) and what the server said. */
const usePhotoRead = <P,>(read: (photo: Blob) => Promise<P>) => {
  const [photo, setPhoto] = useState<Blob | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async (chosen: Blob) => {
    setPhoto(chosen);
    setPreview(null);
    setRefusal(null);
    setBusy(true);
    try {
      setPreview(await read(chosen));
    } catch (caught) {
      setRefusal(refusalOf(caught));
    } finally {
      setBusy(false);
    }
  };
  const clear = () => {
    setPhoto(null);
    setPreview(null);
    setRefusal(null);
  };
  return { photo, preview, refusal, busy, start, clear };
};

const RefusalNotice = ({ refusal }: { refusal: Refusal | null }) =>
  refusal && (
    <div role="alert" class="error">
      <p>Not read: {refusal.message}</p>
      {refusal.read !== null && <><p>What was read:</p><pre class="read-text">{refusal.read || "(nothing)"}</pre></>}
    </div>
  );

const ReadText = ({ read }: { read: PhotoRead }) => (
  <details>
    <summary>What was read ({read.source}, {Math.round(read.confidence)} % sure)</summary>
    <pre class="read-text">{read.text}</pre>
  </details>
);

/** A preview's field: its value as read, and a warning beside it when it was read with low confidence. */
const PreviewField = ({ prefix, field, label, value, read, error }: {
  prefix: string; field: string; label: string; value: string | number | null; read: PhotoRead; error: FormError | null;
}) => {
  const id = `${prefix}-${field}`;
  const unsure = read.lowConfidence.includes(field);
  return (
    <Field id={id} label={label} error={error} {...(unsure ? { hint: "Check this: read with low confidence" } : {})}>
      <input id={id} name={field} class={unsure ? "unsure" : undefined} defaultValue={value === null ? "" : String(value)} inputMode={field === "name" || field === "unit" || field === "description" ? undefined : "decimal"} />
    </Field>
  );
};

const WORKOUT_LABELS = {
  activityType: "Activity", startedAt: "Started", durationS: "Duration (min)", distanceM: "Distance (km)", energyKcal: "Energy (kcal)",
  avgHr: "Average heart rate", description: "Description",
};

/** The form's workout, as POST /api/workouts takes it; an energy left as estimated keeps its range. */
const workoutOf = (form: HTMLFormElement, preview: WorkoutPhotoPreview) => {
  const data = new FormData(form);
  const minutes = numberOrUndefined(data, "durationS");
  const distanceKm = numberOrUndefined(data, "distanceM");
  const kcal = numberOrUndefined(data, "energyKcal");
  const startedAt = new Date(text(data.get("startedAt"))).getTime();
  return {
    activityType: text(data.get("activityType")) as ActivityType,
    startedAt: Number.isNaN(startedAt) ? preview.startedAt : startedAt,
    durationS: minutes === undefined ? Number.NaN : Math.round(minutes * 60),
    distanceM: distanceKm === undefined ? null : round(distanceKm * 1000, 1),
    energyKcal: kcal ?? null,
    ...(kcal === preview.energyKcal && preview.energyEstimate ? { energyEstimate: preview.energyEstimate } : {}),
    avgHr: numberOrUndefined(data, "avgHr") ?? null,
    description: text(data.get("description")),
  };
};

export const WorkoutPhoto = ({ logged }: { logged: () => void }) => {
  const reading = usePhotoRead((photo) => api.previewWorkoutPhoto(photo, { tz: new Date().getTimezoneOffset() }));
  const [error, setError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<Workout | null>(null);
  const { preview } = reading;
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!preview) return;
    setError(null);
    try {
      setSaved(await api.createWorkout(workoutOf(event.currentTarget as HTMLFormElement, preview)));
      reading.clear();
      logged();
    } catch (caught) {
      setError(formError(caught, WORKOUT_LABELS));
    }
  };
  const field = (name: keyof typeof WORKOUT_LABELS, value: string | number | null) =>
    preview && <PreviewField prefix="photo-workout" field={name} label={WORKOUT_LABELS[name]} value={value} read={preview.read} error={error} />;
  return (
    <section class="card" aria-labelledby="photo-workout">
      <h2 id="photo-workout">Log from photo</h2>
      <p class="muted">A treadmill or bike console, a watch or phone summary: check what was read, then save.</p>
      <PhotoInput id="photo-workout-input" busy={reading.busy} picked={(photo) => { setSaved(null); void reading.start(photo); }} />
      <RefusalNotice refusal={reading.refusal} />
      {saved && <p role="status" class="ok">Saved: <a href={`/workouts/${saved.id}`}>{saved.summary}</a></p>}
      {preview && (
        <form onSubmit={(event) => void save(event)} noValidate aria-label="Workout read from the photo">
          <p>Nothing is saved until you do.</p>
          <ReadText read={preview.read} />
          <div class="row">
            <Field id="photo-workout-activityType" label="Activity" error={error}>
              <select id="photo-workout-activityType" name="activityType">
                {Object.entries(ACTIVITIES).map(([value, label]) => <option key={value} value={value} selected={value === preview.activityType}>{label}</option>)}
              </select>
            </Field>
            <Field id="photo-workout-startedAt" label="Started" error={error}>
              <input id="photo-workout-startedAt" name="startedAt" type="datetime-local" defaultValue={localDateTime(new Date(preview.startedAt))} />
            </Field>
          </div>
          <div class="row">
            {field("durationS", round(preview.durationS / 60, 2))}
            {field("distanceM", preview.distanceM === null ? null : round(preview.distanceM / 1000, 2))}
            {field("energyKcal", preview.energyKcal)}
            {field("avgHr", preview.avgHr)}
          </div>
          {field("description", preview.description)}
          <button type="submit">Save workout</button>
          <button type="button" class="secondary" onClick={reading.clear}>Cancel</button>
          <FormProblem error={error} />
        </form>
      )}
    </section>
  );
};

const FOOD_LABELS = { name: "Food", quantity: "Amount", unit: "Unit", kcal: "kcal", proteinG: "Protein (g)", carbsG: "Carbs (g)", fatG: "Fat (g)", meal: "Meal" };

/** The form's item, as POST /api/nutrition/items takes it; kcal and protein left as read keep the label's ranges and source. */
const itemOf = (form: HTMLFormElement, [estimate]: FoodPhotoPreview["items"], date: string) => {
  const data = new FormData(form);
  const kcal = numberOrUndefined(data, "kcal");
  const proteinG = numberOrUndefined(data, "proteinG") ?? 0;
  const meal = text(data.get("meal"));
  const unit = text(data.get("unit"));
  const asRead = estimate && kcal === estimate.kcal && proteinG === estimate.proteinG;
  return {
    date,
    meal: meal === "" ? null : (meal as Meal),
    name: text(data.get("name")),
    kcal,
    proteinG,
    carbsG: numberOrUndefined(data, "carbsG") ?? null,
    fatG: numberOrUndefined(data, "fatG") ?? null,
    quantity: numberOrUndefined(data, "quantity") ?? null,
    unit: unit === "" ? null : unit,
    ...(asRead ? { estimate: { kcal: estimate.kcalRange, proteinG: estimate.proteinRange, source: estimate.source } } : {}),
  };
};

export const FoodPhoto = ({ date, logged }: { date: string; logged: () => void }) => {
  const [amount, setAmount] = useState<{ servings?: number; grams?: number }>({});
  const reading = usePhotoRead((photo) => api.previewFoodPhoto(photo, amount));
  const [error, setError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<FoodItem | null>(null);
  const { preview, photo } = reading;
  const item = preview?.items[0];
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!preview) return;
    setError(null);
    try {
      setSaved(await api.logFood(itemOf(event.currentTarget as HTMLFormElement, preview.items, date)));
      reading.clear();
      logged();
    } catch (caught) {
      setError(formError(caught, FOOD_LABELS));
    }
  };
  const amountField = (name: "servings" | "grams", label: string) => (
    <Field id={`photo-food-${name}`} label={label}>
      <input
        id={`photo-food-${name}`} name={name} inputMode="decimal" value={amount[name] ?? ""}
        onInput={(event) => {
          const value = Number(event.currentTarget.value.replace(",", "."));
          setAmount(event.currentTarget.value.trim() === "" || !Number.isFinite(value) ? {} : { [name]: value });
        }}
      />
    </Field>
  );
  const field = (name: Exclude<keyof typeof FOOD_LABELS, "meal">, value: string | number | null) =>
    preview && <PreviewField prefix="photo-food" field={name} label={FOOD_LABELS[name]} value={value} read={preview.read} error={error} />;
  return (
    <section class="card" aria-labelledby="photo-food">
      <h2 id="photo-food">Log from photo</h2>
      <p class="muted">A nutrition-facts label: say how much you ate (a label per 100 g needs the grams), then take or choose its photo.</p>
      <div class="row">
        {amountField("servings", "Servings eaten")}
        {amountField("grams", "or grams eaten")}
      </div>
      <PhotoInput id="photo-food-input" busy={reading.busy} picked={(chosen) => { setSaved(null); void reading.start(chosen); }} />
      <RefusalNotice refusal={reading.refusal} />
      {reading.refusal && photo && <button type="button" class="secondary" disabled={reading.busy} onClick={() => void reading.start(photo)}>Read again with this amount</button>}
      {saved && <p role="status" class="ok">Logged {saved.name}: {saved.kcal} kcal, {saved.proteinG} g protein.</p>}
      {preview && item && (
        <form onSubmit={(event) => void save(event)} noValidate aria-label="Food read from the label">
          <p>Nothing is logged until you save. Numbers left as read keep the label’s range (±20 %).</p>
          <ReadText read={preview.read} />
          <div class="row">
            {field("name", item.name)}
            {field("quantity", item.quantity)}
            {field("unit", item.unit)}
            <Field id="photo-food-meal" label="Meal" error={error}><MealSelect id="photo-food-meal" value={null} /></Field>
          </div>
          <div class="row">
            {field("kcal", item.kcal)}
            {field("proteinG", item.proteinG)}
            {field("carbsG", item.carbsG)}
            {field("fatG", item.fatG)}
          </div>
          <button type="submit">Save food</button>
          <button type="button" class="secondary" onClick={reading.clear}>Cancel</button>
          <FormProblem error={error} />
        </form>
      )}
    </section>
  );
};
