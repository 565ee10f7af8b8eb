import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { dayStart, localDay } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { Targets } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, text, type FormError } from "../ui.tsx";

const numbers = [
  ["dailyKcalTarget", "Daily energy (kcal)"],
  ["proteinTargetG", "Daily protein (g)"],
  ["startWeightKg", "Start weight (kg)"],
  ["goalWeightKg", "Goal weight (kg)"],
] as const;
const LABELS = { ...Object.fromEntries(numbers), startDate: "Start date", targetDate: "Target date" };

const TargetsForm = ({ targets, saved }: { targets: Targets | null; saved: () => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const [done, setDone] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const day = (name: string) => (text(data.get(name)) ? dayStart(text(data.get(name))) : null);
    setError(null);
    setDone(false);
    try {
      await api.putTargets({
        ...Object.fromEntries(numbers.map(([name]) => [name, numberOrUndefined(data, name) ?? null])),
        startDate: day("startDate"),
        targetDate: day("targetDate"),
      });
      setDone(true);
      saved();
    } catch (caught) {
      setError(formError(caught, LABELS));
    }
  };
  const dayValue = (ms: number | null | undefined) => (ms ? localDay(new Date(ms)) : "");
  return (
    <form class="card" onSubmit={(event) => void submit(event)} noValidate>
      <p class="muted">A field left empty is cleared.</p>
      <div class="row">
        {numbers.map(([name, label]) => (
          <Field key={name} id={`targets-${name}`} label={label} error={error}>
            <input id={`targets-${name}`} name={name} inputMode="decimal" defaultValue={targets?.[name]?.toString() ?? ""} />
          </Field>
        ))}
      </div>
      <div class="row">
        <Field id="targets-startDate" label="Start date" error={error}>
          <input id="targets-startDate" name="startDate" type="date" defaultValue={dayValue(targets?.startDate)} />
        </Field>
        <Field id="targets-targetDate" label="Target date" error={error}>
          <input id="targets-targetDate" name="targetDate" type="date" defaultValue={dayValue(targets?.targetDate)} />
        </Field>
      </div>
      <button type="submit">Save targets</button>
      {done && <span role="status" class="ok">Saved.</span>}
      <FormProblem error={error} />
    </form>
  );
};

export const TargetsPage = () => {
  const { value, error, reload } = useLoad(() => api.targets(), []);
  return (
    <>
      <h1>Targets</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {value !== undefined && <TargetsForm targets={value} saved={() => void reload()} />}
    </>
  );
};
