import { formatLength, lengthUnitName } from "@fit/units";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { formatTime } from "../dates.ts";
import { usePages } from "../load.ts";
import { SITES, siteLabel } from "../sites.ts";
import type { Measurement, MeasurementSite } from "../types.ts";
import { cmOrUndefined, deleteWithUndo, Field, FormProblem, formError, OlderButton, resetForm, whenOf, WhenField, type FormError } from "../ui.tsx";
import { useUnits } from "../units.tsx";

export const MeasurementsPage = () => {
  const { items, error: loadError, reload, hasMore, busy, more } = usePages((cursor) => api.measurements({ limit: 50, ...(cursor ? { cursor } : {}) }));
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<FormError | null>(null);
  const { units } = useUnits();
  const valueLabel = `Value (${lengthUnitName(units)})`;
  const labels = { site: "Site", valueCm: valueLabel, ts: "When" };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    setError(null);
    try {
      const ts = whenOf(form);
      await api.logMeasurement({ site: data.get("site") as MeasurementSite, valueCm: cmOrUndefined(data, "valueCm", units) as number, ...(ts === undefined ? {} : { ts }) });
      // The chosen site stays: the next value is often for the same site (left, then right, then again).
      const site = form.elements.namedItem("site") as HTMLSelectElement;
      const chosen = site.value;
      resetForm(form);
      site.value = chosen;
      await reload();
    } catch (caught) {
      setError(formError(caught, labels, units));
    }
  };
  const remove = (measurement: Measurement) => {
    setHidden((set) => new Set(set).add(measurement.id));
    deleteWithUndo({
      label: `the ${siteLabel(measurement.site)} measurement`,
      commit: () => api.deleteMeasurement(measurement.id),
      restore: () => setHidden((set) => { const next = new Set(set); next.delete(measurement.id); return next; }),
    });
  };
  const measurements = (items ?? []).filter((m) => !hidden.has(m.id));
  return (
    <>
      <h1>Measurements</h1>
      <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="log-measurement">
        <h2 id="log-measurement">Add a measurement</h2>
        <div class="row">
          <Field id="measure-site" label="Site" error={error}>
            <select id="measure-site" name="site">{SITES.map((site) => <option key={site} value={site}>{siteLabel(site)}</option>)}</select>
          </Field>
          <Field id="measure-valueCm" label={valueLabel} error={error}>
            <input id="measure-valueCm" name="valueCm" inputMode="decimal" required />
          </Field>
          <WhenField id="measure-ts" error={error} />
        </div>
        <button type="submit">Add</button>
        <FormProblem error={error} />
      </form>
      <h2>History</h2>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {measurements.length === 0 && items && <p class="muted">No measurements yet.</p>}
      <ul class="list" aria-label="Measurements">
        {measurements.map((m) => (
          <li key={m.id}>
            <div><strong>{siteLabel(m.site)}</strong> {formatLength(m.valueCm, units)} <div class="muted">{formatTime(m.ts)}</div></div>
            <div class="actions">
              <button type="button" class="danger" onClick={() => remove(m)} aria-label={`Delete ${siteLabel(m.site)} ${formatLength(m.valueCm, units)}`}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
      <OlderButton list="measurements" hasMore={hasMore} busy={busy} more={more} />
    </>
  );
};
