// Small shared pieces: labelled fields with their error beside them, the undo bar, number parsing.
import { inUnitsOf, parseLengthCm, parseWeightKg, type UnitSystem } from "@fit/units";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";
import { localDateTime } from "./dates.ts";
import { onNavigate } from "./router.ts";

/** A form's failure: the field its message names, or the form as a whole. */
export interface FormError {
  field?: string | undefined;
  message: string;
}

/** A number field holding something else: refused in the browser, so nothing is sent (or cleared) on its account. */
class NotANumber extends Error {
  constructor(readonly field: string, what: string) {
    super(`${field} must be ${what}`);
  }
}

/**
 * The message in the form's words: the API names its fields as the JSON does (`weightKg`), a person reads the
 * labels beside them. The leading word and any camelCase name are replaced; a plain word mid-sentence is English.
 */
const inLabels = (message: string, labels: Readonly<Record<string, string>>) =>
  message.replace(/\b[A-Za-z]+\b/g, (word, offset: number) => {
    const label = Object.hasOwn(labels, word) ? labels[word] : undefined;
    if (label === undefined || (offset > 0 && !/[a-z][A-Z]/.test(word))) return word;
    return offset === 0 ? label : label.charAt(0).toLowerCase() + label.slice(1);
  });

/** `labels` maps each request field of the form to its label; the API's kilograms and centimetres read in `units`. */
export const formError = (error: unknown, labels: Readonly<Record<string, string>>, units: UnitSystem = "metric"): FormError => {
  if (error instanceof NotANumber) return { field: error.field, message: inLabels(error.message, labels) };
  if (error instanceof ApiError) return { field: error.fieldIn(Object.keys(labels)), message: inLabels(inUnitsOf(error.message, units), labels) };
  return { message: String(error) };
};

/** A label, its control and, when the API refused this field, the reason in words (announced to screen readers). */
export const Field = ({ id, label, error, children, hint }: {
  id: string;
  label: string;
  error?: FormError | null | undefined;
  hint?: string;
  children: ComponentChildren;
}) => {
  const mine = error?.field !== undefined && error.field === id.split("-").pop();
  return (
    <div class={mine ? "field invalid" : "field"}>
      <label for={id}>{label}</label>
      {children}
      {hint && <small>{hint}</small>}
      {mine && <p class="error" id={`${id}-error`} role="alert">{error.message}</p>}
    </div>
  );
};

/** The form-level error, when the message names no field of the form. */
export const FormProblem = ({ error }: { error: FormError | null }) =>
  error && error.field === undefined ? <p class="error" role="alert">{error.message}</p> : null;

/** The form's `field` read by `parse`: empty is "not given"; anything else must read as `what` (the API judges its range). */
const readField = (data: FormData, field: string, parse: (text: string) => number | undefined, what: string): number | undefined => {
  const value = data.get(field);
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") return undefined;
  const number = parse(text);
  if (number === undefined || !Number.isFinite(number)) throw new NotANumber(field, what);
  return number;
};

/** A number field; a decimal comma reads as a point. */
export const numberOrUndefined = (data: FormData, field: string): number | undefined =>
  readField(data, field, (text) => Number(text.replace(",", ".")), "a number");

/** A weight field as kilograms: a bare number in the profile's units, or with its own (`180.5 lb`, `81.4 kg`, `12 st 8`). */
export const kgOrUndefined = (data: FormData, field: string, units: UnitSystem): number | undefined =>
  readField(data, field, (text) => parseWeightKg(text, units), "a weight, such as 81.4, 180.5 lb or 12 st 8 lb");

/** A length field as centimetres: a bare number in the profile's units, or with its own (`32 in`, `81.5 cm`, `5 ft 11 in`). */
export const cmOrUndefined = (data: FormData, field: string, units: UnitSystem): number | undefined =>
  readField(data, field, (text) => parseLengthCm(text, units), "a length, such as 81.5, 32 in or 5 ft 11 in");

/** When a reading was taken: now unless changed, so a reading can be back-filled onto its day and hour. */
export const WhenField = ({ id, error }: { id: string; error: FormError | null }) => (
  <Field id={id} label="When" error={error} hint="Now, unless you change it">
    <input id={id} name="ts" type="datetime-local" defaultValue={localDateTime()} />
  </Field>
);

/** The instant WhenField holds, or undefined when left at its default (the server's now is then more exact). */
export const whenOf = (form: HTMLFormElement): number | undefined => {
  const input = form.elements.namedItem("ts") as HTMLInputElement;
  return input.value && input.value !== input.defaultValue ? new Date(input.value).getTime() : undefined;
};

/** After a write: the form empties and WhenField reads now again. */
export const resetForm = (form: HTMLFormElement) => {
  const when = form.elements.namedItem("ts");
  if (when instanceof HTMLInputElement) when.defaultValue = localDateTime();
  form.reset();
};

/** "Older": the next page of a list, while there is one. */
export const OlderButton = ({ list, hasMore, busy, more }: { list: string; hasMore: boolean; busy: boolean; more: () => void }) =>
  hasMore ? <button type="button" class="secondary" disabled={busy} onClick={more} aria-label={`Older ${list}`}>Older</button> : null;

export const text = (value: FormDataEntryValue | null): string => (typeof value === "string" ? value.trim() : "");

interface PendingDelete {
  label: string;
  commit: () => Promise<unknown>;
  restore: () => void;
}

const UNDO_MS = 6000;
let pending: (PendingDelete & { timer: number }) | null = null;
const subscribers = new Set<() => void>();
const changed = () => subscribers.forEach((notify) => notify());

const flush = () => {
  if (!pending) return;
  const { commit, restore, timer } = pending;
  clearTimeout(timer);
  pending = null;
  changed();
  commit().catch(restore);
};

/**
 * Deletes after a few seconds unless undone: the row disappears at once (`hide` already ran), the request is sent
 * when the time is up, when another delete starts, or when the page is left (another screen of the app included,
 * whose rows would otherwise show it again). Undo restores the row, and nothing
 * was ever sent.
 */
export const deleteWithUndo = (item: PendingDelete) => {
  flush();
  pending = { ...item, timer: window.setTimeout(flush, UNDO_MS) };
  changed();
};

window.addEventListener("pagehide", flush);
onNavigate(flush);

export const UndoBar = () => {
  const [, rerender] = useState(0);
  useEffect(() => {
    const notify = () => rerender((n) => n + 1);
    subscribers.add(notify);
    return () => subscribers.delete(notify);
  }, []);
  if (!pending) return null;
  const undo = () => {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.restore();
    pending = null;
    changed();
  };
  return (
    <div class="undo" role="status">
      <span>Deleted {pending.label}.</span>
      <button type="button" onClick={undo}>Undo</button>
    </div>
  );
};

export const round = (value: number, digits = 1) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};
