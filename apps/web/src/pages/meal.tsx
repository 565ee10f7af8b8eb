import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { formatDay, localDay } from "../dates.ts";
import type { FoodEstimate, Meal } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";
import "../screens.css";

const MEALS: readonly Meal[] = ["breakfast", "lunch", "dinner", "snack"];
/** An item's fields, as the API names them, with their labels. */
const ITEM_LABELS = { name: "Food", quantity: "Amount", unit: "Unit", kcal: "kcal", proteinG: "Protein (g)", carbsG: "Carbs (g)", fatG: "Fat (g)" };

/** One estimated item in the preview: its own key (names repeat), and the error its save got, if any. */
type Draft = { key: number; estimate: FoodEstimate; error?: FormError | undefined };

const DraftItem = ({ draft, index, remove }: { draft: Draft; index: number; remove: () => void }) => {
  const { estimate, error } = draft;
  const id = (field: string) => `meal-${draft.key}-${field}`;
  const input = (field: keyof typeof ITEM_LABELS, value: string | number | null, hint?: string) => (
    <Field id={id(field)} label={ITEM_LABELS[field]} error={error} {...(hint ? { hint } : {})}>
      <input id={id(field)} name={id(field)} defaultValue={value === null ? "" : String(value)} inputMode={field === "name" || field === "unit" ? undefined : "decimal"} />
    </Field>
  );
  return (
    <fieldset class="card draft">
      <legend>Item {index + 1}: {estimate.name}</legend>
      <div class="row">
        {input("name", estimate.name)}
        {input("quantity", estimate.quantity)}
        {input("unit", estimate.unit, estimate.grams === null ? undefined : `about ${round(estimate.grams, 0)} g`)}
      </div>
      <div class="row">
        {input("kcal", round(estimate.kcal, 0), `estimate ${round(estimate.kcalRange.low, 0)}–${round(estimate.kcalRange.high, 0)}`)}
        {input("proteinG", round(estimate.proteinG, 1), `estimate ${round(estimate.proteinRange.low, 1)}–${round(estimate.proteinRange.high, 1)}`)}
        {input("carbsG", estimate.carbsG === null ? null : round(estimate.carbsG, 1))}
        {input("fatG", estimate.fatG === null ? null : round(estimate.fatG, 1))}
      </div>
      <button type="button" class="link" onClick={remove}>Leave out {estimate.name}</button>
      <FormProblem error={error ?? null} />
    </fieldset>
  );
};

export const MealPage = () => {
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [unrecognized, setUnrecognized] = useState<string[]>([]);
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const [logged, setLogged] = useState<{ count: number; date: string } | null>(null);

  const estimate = async (event: SubmitEvent) => {
    event.preventDefault();
    setError(null);
    setLogged(null);
    setBusy(true);
    try {
      const answer = await api.estimateFood(text(new FormData(event.currentTarget as HTMLFormElement).get("text")));
      setDrafts(answer.items.map((item, key) => ({ key: Date.now() + key, estimate: item })));
      setUnrecognized(answer.unrecognized);
    } catch (caught) {
      setError(formError(caught, { text: "In your own words" }));
    } finally {
      setBusy(false);
    }
  };

  /** Each item is logged on its own (with its own Idempotency-Key); a refused one stays, with its reason, to fix. */
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const date = text(data.get("date")) || localDay();
    const meal = text(data.get("meal"));
    /** One draft's fields under the API's names, so a number refused in the browser is named as the server would. */
    const fieldsOf = (draft: Draft) => {
      const fields = new FormData();
      for (const field of Object.keys(ITEM_LABELS)) fields.set(field, data.get(`meal-${draft.key}-${field}`) ?? "");
      return fields;
    };
    setBusy(true);
    let count = 0;
    const left: Draft[] = [];
    for (const draft of drafts) {
      const fields = fieldsOf(draft);
      const unit = text(fields.get("unit"));
      try {
        await api.logFood({
          date,
          meal: meal === "" ? null : (meal as Meal),
          name: text(fields.get("name")),
          kcal: numberOrUndefined(fields, "kcal"),
          proteinG: numberOrUndefined(fields, "proteinG") ?? 0,
          carbsG: numberOrUndefined(fields, "carbsG") ?? null,
          fatG: numberOrUndefined(fields, "fatG") ?? null,
          quantity: numberOrUndefined(fields, "quantity") ?? null,
          unit: unit === "" ? null : unit,
        });
        count++;
      } catch (caught) {
        left.push({ ...draft, error: formError(caught, ITEM_LABELS) });
      }
    }
    setBusy(false);
    setDrafts(left);
    if (count > 0) setLogged({ count, date });
  };

  return (
    <>
      <h1>Describe a meal</h1>
      <form class="card" onSubmit={(event) => void estimate(event)} noValidate aria-labelledby="meal-describe">
        <h2 id="meal-describe">What did you eat?</h2>
        <Field id="meal-text" label="In your own words" error={error} hint="e.g. “two eggs, a slice of toast and a banana”">
          <textarea id="meal-text" name="text" rows={2} maxLength={4000} required />
        </Field>
        <button type="submit" disabled={busy}>Estimate</button>
        <FormProblem error={error} />
      </form>
      {logged && (
        <p role="status" class="ok">
          Logged {logged.count} {logged.count === 1 ? "item" : "items"} on {logged.date === localDay() ? "today" : formatDay(logged.date)}.{" "}
          <a href={`/food?date=${logged.date}`}>See the day’s food</a>
        </p>
      )}
      {drafts.length > 0 && (
        <form onSubmit={(event) => void save(event)} noValidate aria-labelledby="meal-preview">
          <h2 id="meal-preview">Check the estimate</h2>
          <p class="muted">These are estimates: correct anything before logging. Nothing is logged until you do.</p>
          {unrecognized.length > 0 && <p>Not recognised, so left out: {unrecognized.join(", ")}.</p>}
          <div class="row">
            <Field id="meal-date" label="Day"><input id="meal-date" name="date" type="date" defaultValue={localDay()} /></Field>
            <Field id="meal-meal" label="Meal">
              <select id="meal-meal" name="meal">
                <option value="">no meal</option>
                {MEALS.map((meal) => <option key={meal} value={meal}>{meal}</option>)}
              </select>
            </Field>
          </div>
          {drafts.map((draft, index) => (
            <DraftItem key={draft.key} draft={draft} index={index} remove={() => setDrafts((list) => list.filter((d) => d.key !== draft.key))} />
          ))}
          <button type="submit" disabled={busy}>Log {drafts.length === 1 ? "this item" : `these ${drafts.length} items`}</button>
          <button type="button" class="secondary" onClick={() => setDrafts([])}>Discard</button>
        </form>
      )}
    </>
  );
};
