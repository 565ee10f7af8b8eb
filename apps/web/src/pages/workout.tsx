import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { formatTime } from "../dates.ts";
import { useLoad } from "../load.ts";
import { RouteMap } from "../route-map.tsx";
import { navigate, useLocation } from "../router.ts";
import type { ActivityType, Workout, WorkoutPatch, WorkoutRoute } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";
import { ACTIVITIES, clock, duration, km, speed } from "../workout-format.ts";
import "../screens.css";

/** The edit form's fields, as the API names them, with their labels. Minutes and kilometres are typed under the
 * API's names so that an error, the browser's or the server's, lands beside the field it is about. */
const LABELS = {
  summary: "Title", activityType: "Activity", startedAt: "Started", durationS: "Duration (min)", distanceM: "Distance (km)",
  energyKcal: "Energy (kcal)", description: "Notes",
};

const pad = (n: number) => String(n).padStart(2, "0");
/** The value of a datetime-local input: the browser's local time. */
const localDateTime = (ms: number) => {
  const at = new Date(ms);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

const Metrics = ({ workout }: { workout: Workout }) => {
  const pace = workout.distanceM ? speed(workout.activityType, workout.distanceM, workout.movingDurationS ?? workout.durationS) : null;
  const rows: [string, string | null][] = [
    ["Activity", ACTIVITIES[workout.activityType]],
    ["Started", formatTime(workout.startedAt)],
    ["Duration", clock(workout.durationS)],
    ["Moving time", workout.movingDurationS === null ? null : clock(workout.movingDurationS)],
    ["Distance", workout.distanceM === null ? null : km(workout.distanceM)],
    [pace?.endsWith("/km") ? "Pace" : "Speed", pace],
    ["Elevation gain", workout.elevationGainM === null ? null : `${round(workout.elevationGainM, 0)} m`],
    ["Energy", workout.energyKcal === null ? null : `${Math.round(workout.energyKcal)} kcal${workout.energyEstimate
      ? ` (estimate, ${Math.round(workout.energyEstimate.low)}–${Math.round(workout.energyEstimate.high)})` : ""}`],
    ["Average heart rate", workout.avgHr === null ? null : `${workout.avgHr} bpm`],
    ["Maximum heart rate", workout.maxHr === null ? null : `${workout.maxHr} bpm`],
    ["Average power", workout.avgPowerW === null ? null : `${workout.avgPowerW} W`],
    ["Average cadence", workout.avgCadence === null ? null : `${workout.avgCadence} per minute`],
  ];
  return (
    <dl class="pairs metrics">
      {rows.filter((row): row is [string, string] => row[1] !== null).map(([label, value]) => (
        <Fragment key={label}><dt>{label}</dt><dd>{value}</dd></Fragment>
      ))}
    </dl>
  );
};

const Exercises = ({ workout }: { workout: Workout }) => (
  <section aria-labelledby="exercises">
    <h2 id="exercises">Exercises</h2>
    <table>
      <thead><tr><th scope="col">Exercise</th><th scope="col">Sets</th><th scope="col">Reps</th><th scope="col">Weight</th><th scope="col">Notes</th></tr></thead>
      <tbody>
        {workout.exercises.map((exercise, i) => (
          <tr key={i}>
            <th scope="row">{exercise.exercise}</th>
            <td>{exercise.sets ?? "—"}</td>
            <td>{exercise.reps ?? "—"}</td>
            <td>{exercise.weightLb === null ? "—" : `${exercise.weightLb} lb`}</td>
            <td>{exercise.notes ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </section>
);

const Splits = ({ workout, route }: { workout: Workout; route: WorkoutRoute }) => (
  <section aria-labelledby="splits">
    <h2 id="splits">Splits</h2>
    <table>
      <thead><tr><th scope="col">Kilometre</th><th scope="col">Distance</th><th scope="col">Time</th><th scope="col">Pace</th></tr></thead>
      <tbody>
        {route.splits.map((split) => (
          <tr key={split.km}>
            <th scope="row">{split.km}</th>
            <td>{km(split.distanceM)}</td>
            <td>{clock(split.durationS)}</td>
            <td>{speed(workout.activityType, split.distanceM, split.durationS) ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </section>
);

/** Only what was changed is sent: an unchanged energy sent back would drop its estimate's range. */
const changesIn = (form: HTMLFormElement, workout: Workout): WorkoutPatch => {
  const data = new FormData(form);
  const minutes = numberOrUndefined(data, "durationS");
  const distanceKm = numberOrUndefined(data, "distanceM");
  const kcal = numberOrUndefined(data, "energyKcal");
  const startedAt = new Date(text(data.get("startedAt"))).getTime();
  const next: WorkoutPatch = {
    summary: text(data.get("summary")),
    activityType: text(data.get("activityType")) as ActivityType,
    startedAt: Number.isNaN(startedAt) ? workout.startedAt : startedAt,
    durationS: minutes === undefined ? Number.NaN : Math.round(minutes * 60),
    distanceM: distanceKm === undefined ? null : round(distanceKm * 1000, 1),
    energyKcal: kcal ?? null,
    description: text(data.get("description")),
  };
  const before: WorkoutPatch = {
    summary: workout.summary, activityType: workout.activityType, startedAt: Math.floor(workout.startedAt / 60_000) * 60_000,
    durationS: workout.durationS, distanceM: workout.distanceM, energyKcal: workout.energyKcal, description: workout.description,
  };
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => before[key as keyof WorkoutPatch] !== value));
};

const WorkoutEditor = ({ workout, done }: { workout: Workout; done: (changed: boolean) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    try {
      const patch = changesIn(event.currentTarget as HTMLFormElement, workout);
      if (Object.keys(patch).length === 0) return done(false);
      await api.editWorkout(workout.id, patch);
      done(true);
    } catch (caught) {
      setError(formError(caught, LABELS));
    }
  };
  return (
    <form class="card" onSubmit={(event) => void save(event)} noValidate aria-labelledby="edit-workout">
      <h2 id="edit-workout">Edit workout</h2>
      <Field id="edit-summary" label="Title" error={error}><input id="edit-summary" name="summary" defaultValue={workout.summary} maxLength={200} /></Field>
      <div class="row">
        <Field id="edit-activityType" label="Activity" error={error}>
          <select id="edit-activityType" name="activityType">
            {Object.entries(ACTIVITIES).map(([value, label]) => <option key={value} value={value} selected={value === workout.activityType}>{label}</option>)}
          </select>
        </Field>
        <Field id="edit-startedAt" label="Started" error={error}>
          <input id="edit-startedAt" name="startedAt" type="datetime-local" defaultValue={localDateTime(workout.startedAt)} />
        </Field>
        <Field id="edit-durationS" label="Duration (min)" error={error}>
          <input id="edit-durationS" name="durationS" inputMode="decimal" defaultValue={String(round(workout.durationS / 60, 2))} />
        </Field>
        <Field id="edit-distanceM" label="Distance (km)" error={error}>
          <input id="edit-distanceM" name="distanceM" inputMode="decimal" defaultValue={workout.distanceM === null ? "" : String(round(workout.distanceM / 1000, 3))} />
        </Field>
        <Field id="edit-energyKcal" label="Energy (kcal)" error={error}>
          <input id="edit-energyKcal" name="energyKcal" inputMode="decimal" defaultValue={workout.energyKcal === null ? "" : String(round(workout.energyKcal, 0))} />
        </Field>
      </div>
      <Field id="edit-description" label="Notes" error={error}>
        <textarea id="edit-description" name="description" rows={3} maxLength={4000} defaultValue={workout.description} />
      </Field>
      <button type="submit">Save</button>
      <button type="button" class="secondary" onClick={() => done(false)}>Cancel</button>
      <FormProblem error={error} />
    </form>
  );
};

/** Deleting asks once more, in place: a workout imported from a file is not one click away from gone. */
const DeleteWorkout = ({ workout }: { workout: Workout }) => {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    try {
      await api.deleteWorkout(workout.id);
      navigate("/workouts");
    } catch (caught) {
      setError(String(caught instanceof Error ? caught.message : caught));
    }
  };
  if (!asking) return <button type="button" class="danger" onClick={() => setAsking(true)}>Delete workout</button>;
  return (
    <div class="confirm" role="group" aria-labelledby="confirm-delete">
      <p id="confirm-delete">Delete “{workout.summary}” for good? Its route and splits go with it.</p>
      <button type="button" class="danger" onClick={() => void remove()} autofocus>Yes, delete it</button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>Keep it</button>
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
};

export const WorkoutPage = () => {
  const id = useLocation().pathname.split("/").pop() ?? "";
  const { value: workout, error, reload } = useLoad(() => api.workout(id), [id]);
  const { value: route } = useLoad(() => api.workoutRoute(id), [id]);
  const [editing, setEditing] = useState(false);
  if (error) return <><h1>Workout</h1><p class="error" role="alert">{error}</p><p><a href="/workouts">All workouts</a></p></>;
  if (!workout) return <p class="muted" aria-busy="true">Loading…</p>;
  return (
    <>
      <p><a href="/workouts">← All workouts</a></p>
      <h1>{workout.summary}</h1>
      {editing ? (
        <WorkoutEditor workout={workout} done={(changed) => { setEditing(false); if (changed) void reload(); }} />
      ) : (
        <div class="actions page-actions">
          <button type="button" class="secondary" onClick={() => setEditing(true)}>Edit workout</button>
          <DeleteWorkout workout={workout} />
        </div>
      )}
      <div class="two-up">
        <section aria-labelledby="workout-metrics">
          <h2 id="workout-metrics">Metrics</h2>
          <Metrics workout={workout} />
          {workout.description && workout.description !== workout.summary && <p class="note">{workout.description}</p>}
        </section>
        {route && route.segments.length > 0 && (
          <section aria-labelledby="workout-route">
            <h2 id="workout-route">Route</h2>
            <RouteMap route={route} label={`Route of ${workout.summary}, ${workout.distanceM === null ? "" : km(workout.distanceM)}`} />
          </section>
        )}
      </div>
      {route && route.splits.length > 0 && <Splits workout={workout} route={route} />}
      {workout.exercises.length > 0 && <Exercises workout={workout} />}
      <p class="muted">Logged {formatTime(workout.createdAt)} · {duration(workout.durationS)} · source: {workout.source.replace("_", " ")}</p>
    </>
  );
};
