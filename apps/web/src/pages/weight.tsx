import { formatWeight, weightUnitName } from "@fit/units";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { formatTime } from "../dates.ts";
import { usePages } from "../load.ts";
import type { WeightReading } from "../types.ts";
import {
  deleteWithUndo, Field, FormProblem, formError, kgOrUndefined, numberOrUndefined, OlderButton, resetForm, text, whenOf, WhenField,
  type FormError,
} from "../ui.tsx";
import { useUnits } from "../units.tsx";

const NoteEditor = ({ reading, done }: { reading: WeightReading; done: (changed: boolean) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const note = text(new FormData(event.currentTarget as HTMLFormElement).get("note"));
    try {
      await api.editWeightNote(reading.id, note === "" ? null : note);
      done(true);
    } catch (caught) {
      setError(formError(caught, { note: "Note" }));
    }
  };
  return (
    <form class="inline" onSubmit={(event) => void save(event)}>
      <Field id={`edit-${reading.id}-note`} label="Note" error={error}>
        <input id={`edit-${reading.id}-note`} name="note" defaultValue={reading.note ?? ""} maxLength={500} autofocus />
      </Field>
      <button type="submit">Save</button>
      <button type="button" class="secondary" onClick={() => done(false)}>Cancel</button>
      <FormProblem error={error} />
    </form>
  );
};

export const WeightPage = () => {
  const { items, error: loadError, reload, hasMore, busy, more } = usePages((cursor) => api.weights({ limit: 50, ...(cursor ? { cursor } : {}) }));
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState(false);
  const { units } = useUnits();
  const weightLabel = `Weight (${weightUnitName(units)})`;
  const labels = { weightKg: weightLabel, bodyFatPct: "Body fat (%)", note: "Note", ts: "When" };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const note = text(data.get("note"));
    setError(null);
    setSaved(false);
    try {
      const ts = whenOf(form);
      await api.logWeight({
        weightKg: kgOrUndefined(data, "weightKg", units) as number,
        bodyFatPct: numberOrUndefined(data, "bodyFatPct"),
        note: note === "" ? undefined : note,
        ...(ts === undefined ? {} : { ts }),
      });
      resetForm(form);
      setSaved(true);
      await reload();
    } catch (caught) {
      setError(formError(caught, labels, units));
    }
  };
  const shown = (reading: WeightReading) => formatWeight(reading.weightKg, units);
  const remove = (reading: WeightReading) => {
    setHidden((set) => new Set(set).add(reading.id));
    deleteWithUndo({
      label: `the ${shown(reading)} weigh-in`,
      commit: () => api.deleteWeight(reading.id),
      restore: () => setHidden((set) => { const next = new Set(set); next.delete(reading.id); return next; }),
    });
  };

  const readings = (items ?? []).filter((reading) => !hidden.has(reading.id));
  return (
    <>
      <h1>Weight</h1>
      <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="log-weight">
        <h2 id="log-weight">Log a weigh-in</h2>
        <div class="row">
          <Field id="weight-weightKg" label={weightLabel} error={error} hint={units === "metric" ? undefined : "A unit typed wins: 81.4 kg"}>
            <input id="weight-weightKg" name="weightKg" inputMode="decimal" required />
          </Field>
          <Field id="weight-bodyFatPct" label="Body fat (%)" error={error}>
            <input id="weight-bodyFatPct" name="bodyFatPct" inputMode="decimal" />
          </Field>
          <WhenField id="weight-ts" error={error} />
        </div>
        <Field id="weight-note" label="Note" error={error}>
          <input id="weight-note" name="note" maxLength={500} />
        </Field>
        <button type="submit">Log weight</button>
        {saved && <span role="status" class="ok">Logged.</span>}
        <FormProblem error={error} />
      </form>
      <h2>Weigh-ins</h2>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {readings.length === 0 && items && <p class="muted">No weigh-ins yet.</p>}
      <ul class="list" aria-label="Weigh-ins">
        {readings.map((reading) => (
          <li key={reading.id}>
            {editing === reading.id ? (
              <NoteEditor reading={reading} done={(changed) => { setEditing(null); if (changed) void reload(); }} />
            ) : (
              <>
                <div>
                  <strong>{shown(reading)}</strong>
                  {reading.bodyFatPct !== null && <span> · {reading.bodyFatPct} %</span>}
                  <div class="muted">{formatTime(reading.ts)}{reading.source === "scale" ? " · scale" : ""}</div>
                  {reading.note && <div class="note">{reading.note}</div>}
                </div>
                <div class="actions">
                  <button type="button" class="secondary" onClick={() => setEditing(reading.id)} aria-label={`Edit note of ${shown(reading)} on ${formatTime(reading.ts)}`}>Edit note</button>
                  <button type="button" class="danger" onClick={() => remove(reading)} aria-label={`Delete ${shown(reading)} on ${formatTime(reading.ts)}`}>Delete</button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      <OlderButton list="weigh-ins" hasMore={hasMore} busy={busy} more={more} />
    </>
  );
};
