// Log again: a past meal, or a whole day, copied to another day and meal in one request.
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { localDay } from "../dates.ts";
import { MEALS } from "../meal-select.tsx";
import type { Meal } from "../types.ts";
import { Field, FormProblem, formError, text, type FormError } from "../ui.tsx";

const LABELS = { date: "To day", meal: "Meal" } as const;

/** What a copy logged and where, for the page to announce. */
export interface Copied {
  count: number;
  date: string;
  meal: Meal | null;
}

/** The API names this form's fields as the copy's destination (`to.date must…`); the form has only that end. */
const copyError = (caught: unknown): FormError =>
  formError(caught instanceof ApiError ? new ApiError(caught.status, caught.message.replace(/^to\./, ""), caught.detail) : caught, LABELS);

/** `meal` null copies the whole day `date`; the copies keep their own meals unless one is chosen. */
export const CopyForm = ({ date, meal, done }: { date: string; meal: Meal | null; done: (copied: Copied | null) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const id = (field: string) => `copy-${meal ?? "day"}-${field}`;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const to = text(data.get("date"));
    const toMeal = text(data.get("meal")) === "" ? null : (text(data.get("meal")) as Meal);
    setError(null);
    setBusy(true);
    try {
      const items = await api.copyFood({ from: { date, ...(meal && { meal }) }, to: { date: to, ...(toMeal && { meal: toMeal }) } });
      done({ count: items.length, date: to, meal: toMeal ?? meal });
    } catch (caught) {
      setError(copyError(caught));
    } finally {
      setBusy(false);
    }
  };
  const action = meal ? "Log again" : "Copy day";
  return (
    <form class="inline editor" onSubmit={(event) => void submit(event)} noValidate aria-label={meal ? `Log again: ${meal}` : "Copy day"}>
      <div class="row">
        <Field id={id("date")} label="To day" error={error}><input id={id("date")} name="date" type="date" defaultValue={localDay()} autofocus /></Field>
        <Field id={id("meal")} label="Meal" error={error}>
          <select id={id("meal")} name="meal">
            <option value="">{meal ? `${meal}, as logged` : "each its own meal"}</option>
            {MEALS.map((choice) => <option key={choice} value={choice}>{choice}</option>)}
          </select>
        </Field>
      </div>
      <button type="submit" disabled={busy}>{action}</button>
      <button type="button" class="secondary" onClick={() => done(null)}>Cancel</button>
      <FormProblem error={error} />
    </form>
  );
};
