import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { addDays, dayStart, formatDay, formatTime, localDay } from "../dates.ts";
import type { Workout } from "../types.ts";
import { Field, FormProblem, formError, text, type FormError } from "../ui.tsx";
import { ACTIVITIES, duration, km } from "../workout-format.ts";
import { WorkoutPhoto } from "./photo-log.tsx";
import "../screens.css";

const PAGE = 50;

/** The Monday (local) of the week a workout started in: the list's weeks run Monday to Sunday, as the dashboard's. */
const mondayOf = (ms: number): string => {
  const day = localDay(new Date(ms));
  return addDays(day, -((new Date(dayStart(day)).getDay() + 6) % 7));
};

const weeksOf = (workouts: readonly Workout[]) => {
  const weeks = new Map<string, Workout[]>();
  for (const workout of workouts) {
    const monday = mondayOf(workout.startedAt);
    weeks.set(monday, [...(weeks.get(monday) ?? []), workout]);
  }
  return [...weeks].map(([monday, list]) => ({ monday, list }));
};

const WeekTotals = ({ list }: { list: readonly Workout[] }) => {
  const seconds = list.reduce((total, w) => total + w.durationS, 0);
  const metres = list.reduce((total, w) => total + (w.distanceM ?? 0), 0);
  const kcal = list.reduce((total, w) => total + (w.energyKcal ?? 0), 0);
  return (
    <p class="week-totals">
      {list.length} {list.length === 1 ? "workout" : "workouts"} · {duration(seconds)}
      {metres > 0 && ` · ${km(metres)}`}{kcal > 0 && ` · ${Math.round(kcal)} kcal`}
    </p>
  );
};

const WorkoutRow = ({ workout }: { workout: Workout }) => (
  <li>
    <div>
      <a href={`/workouts/${workout.id}`}><strong>{workout.summary}</strong></a>
      <div class="muted">
        {ACTIVITIES[workout.activityType]} · {formatTime(workout.startedAt)} · {duration(workout.durationS)}
        {workout.distanceM !== null && workout.distanceM > 0 && ` · ${km(workout.distanceM)}`}
        {workout.energyKcal !== null && ` · ${Math.round(workout.energyKcal)} kcal`}
      </div>
    </div>
  </li>
);

type Upload = { name: string; state: "waiting" | "sending" | "done" | "failed"; message: string; id?: string };

/** GPX, TCX or FIT: the server reads the format from the content; the type only has to be one it accepts. */
const asActivityFile = (file: File) => {
  const extension = file.name.split(".").pop()?.toLowerCase();
  const type = extension === "gpx" ? "application/gpx+xml" : extension === "tcx" ? "application/vnd.garmin.tcx+xml" : extension === "fit" ? "application/vnd.ant.fit" : "application/octet-stream";
  return new Blob([file], { type });
};

/** Files one after another (the service reads a few at a time and refuses past that), each with its own line. */
const ImportFiles = ({ imported }: { imported: () => void }) => {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const send = async (files: readonly File[]) => {
    if (files.length === 0) return;
    const start = uploads.length;
    const update = (index: number, change: Partial<Upload>) =>
      setUploads((list) => list.map((upload, i) => (i === start + index ? { ...upload, ...change } : upload)));
    setUploads((list) => [...list, ...files.map((file): Upload => ({ name: file.name, state: "waiting", message: "waiting" }))]);
    for (const [index, file] of files.entries()) {
      update(index, { state: "sending", message: "importing…" });
      try {
        const { created, workout } = await api.importWorkout(asActivityFile(file));
        update(index, { state: "done", message: `${created ? "imported" : "already imported, updated"}: ${workout.summary}`, id: workout.id });
      } catch (caught) {
        update(index, { state: "failed", message: `not imported: ${caught instanceof ApiError ? caught.message : String(caught)}` });
      }
    }
    imported();
  };
  const dropped = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void send([...(event.dataTransfer?.files ?? [])]);
  };
  return (
    <section class="card" aria-labelledby="import-files">
      <h2 id="import-files">Import files</h2>
      <div
        class={over ? "dropzone over" : "dropzone"}
        onDragOver={(event) => { event.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)}
        onDrop={dropped}
      >
        <p>Drop GPX, TCX or FIT files here, or</p>
        <label class="button secondary" for="import-input">Choose files</label>
        <input
          id="import-input" class="visually-hidden" type="file" multiple accept=".gpx,.tcx,.fit"
          onChange={(event) => {
            const input = event.currentTarget;
            void send([...(input.files ?? [])]);
            input.value = "";
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul class="list uploads" aria-label="Imports" aria-live="polite">
          {uploads.map((upload, i) => (
            <li key={i} class={`upload ${upload.state}`}>
              <span><strong>{upload.name}</strong> — <span role={upload.state === "failed" ? "alert" : undefined}>{upload.message}</span></span>
              {upload.id && <a href={`/workouts/${upload.id}`}>Open</a>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

const DescribeWorkout = ({ logged }: { logged: () => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Workout | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      const workout = await api.describeWorkout({ text: text(new FormData(form).get("text")), date: localDay(), tz: new Date().getTimezoneOffset() });
      form.reset();
      setDone(workout);
      logged();
    } catch (caught) {
      setError(formError(caught, { text: "What did you do?" }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="describe-workout">
      <h2 id="describe-workout">Describe a workout</h2>
      <Field id="workout-text" label="What did you do?" error={error} hint="e.g. “ran 5 km in 27 minutes this morning” or “45 minutes of yoga”">
        <textarea id="workout-text" name="text" rows={2} maxLength={4000} required />
      </Field>
      <button type="submit" disabled={busy}>{busy ? "Logging…" : "Log workout"}</button>
      {done && <span role="status" class="ok">Logged: <a href={`/workouts/${done.id}`}>{done.summary}</a></span>}
      <FormProblem error={error} />
    </form>
  );
};

export const WorkoutsPage = () => {
  const [workouts, setWorkouts] = useState<Workout[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = async (cursor?: string) => {
    try {
      const page = await api.workouts({ limit: PAGE, ...(cursor ? { cursor } : {}) });
      setWorkouts((list) => (cursor ? [...(list ?? []), ...page.items] : page.items));
      setNext(page.nextCursor);
      setLoadError(null);
    } catch (caught) {
      setLoadError(caught instanceof ApiError ? caught.message : String(caught));
    }
  };
  useEffect(() => void load(), []);
  const reload = () => void load();
  return (
    <>
      <h1>Workouts</h1>
      <div class="two-up">
        <DescribeWorkout logged={reload} />
        <ImportFiles imported={reload} />
      </div>
      <WorkoutPhoto logged={reload} />
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {workouts?.length === 0 && <p class="muted">No workouts yet: describe one or import a file from your watch.</p>}
      {workouts && weeksOf(workouts).map(({ monday, list }) => (
        <section key={monday} class="week" aria-labelledby={`week-${monday}`}>
          <h2 id={`week-${monday}`}>Week of {formatDay(monday)}</h2>
          <WeekTotals list={list} />
          <ul class="list" aria-label={`Workouts in the week of ${formatDay(monday)}`}>
            {list.map((workout) => <WorkoutRow key={workout.id} workout={workout} />)}
          </ul>
        </section>
      ))}
      {next && <button type="button" class="secondary" onClick={() => void load(next)}>Show older workouts</button>}
    </>
  );
};
