import { weightFieldText, weightUnitName, type UnitSystem } from "@fit/units";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { dayStart, localDay } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { Targets } from "../types.ts";
import { Field, FormProblem, formError, kgOrUndefined, numberOrUndefined, text, type FormError } from "../ui.tsx";
import { useUnits } from "../units.tsx";

const amounts = [
  ["dailyKcalTarget", "Daily energy (kcal)"],
  ["proteinTargetG", "Daily protein (g)"],
] as const;
const weights = [
  ["startWeightKg", "Start weight"],
  ["goalWeightKg", "Goal weight"],
] as const;
const labelsIn = (units: UnitSystem): Record<string, string> => ({
  ...Object.fromEntries(amounts),
  ...Object.fromEntries(weights.map(([name, label]) => [name, `${label} (${weightUnitName(units)})`])),
  startDate: "Start date",
  targetDate: "Target date",
});

const TargetsForm = ({ targets, saved }: { targets: Targets | null; saved: () => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const [done, setDone] = useState(false);
  const { units } = useUnits();
  const labels = labelsIn(units);
  const shown = (name: (typeof weights)[number][0]) => {
    const kg = targets?.[name];
    return kg == null ? "" : weightFieldText(kg, units);
  };
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const day = (name: string) => (text(data.get(name)) ? dayStart(text(data.get(name))) : null);
    // A weight left as shown keeps its stored kilograms: 81.63 kg shows as 180.0 lb, which would send back 81.65.
    const kg = (name: (typeof weights)[number][0]) =>
      text(data.get(name)) === shown(name) ? (targets?.[name] ?? null) : (kgOrUndefined(data, name, units) ?? null);
    setError(null);
    setDone(false);
    try {
      await api.putTargets({
        ...Object.fromEntries(amounts.map(([name]) => [name, numberOrUndefined(data, name) ?? null])),
        ...Object.fromEntries(weights.map(([name]) => [name, kg(name)])),
        startDate: day("startDate"),
        targetDate: day("targetDate"),
      });
      setDone(true);
      saved();
    } catch (caught) {
      setError(formError(caught, labels, units));
    }
  };
  const dayValue = (ms: number | null | undefined) => (ms ? localDay(new Date(ms)) : "");
  return (
    <form class="card" onSubmit={(event) => void submit(event)} noValidate>
      <p class="muted">A field left empty is cleared.</p>
      <div class="row">
        {amounts.map(([name, label]) => (
          <Field key={name} id={`targets-${name}`} label={label} error={error}>
            <input id={`targets-${name}`} name={name} inputMode="decimal" defaultValue={targets?.[name]?.toString() ?? ""} />
          </Field>
        ))}
        {weights.map(([name]) => (
          <Field key={name} id={`targets-${name}`} label={labels[name] ?? name} error={error}>
            <input id={`targets-${name}`} name={name} inputMode="decimal" defaultValue={shown(name)} />
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
