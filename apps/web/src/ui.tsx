// Small shared pieces: labelled fields with their error beside them, the undo bar, number parsing.
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
  constructor(readonly field: string) {
    super(`${field} must be a number`);
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

/** `labels` maps each request field of the form to its label. */
export const formError = (error: unknown, labels: Readonly<Record<string, string>>): FormError => {
  if (error instanceof NotANumber) return { field: error.field, message: inLabels(error.message, labels) };
  if (error instanceof ApiError) return { field: error.fieldIn(Object.keys(labels)), message: inLabels(error.message, labels) };
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

/** The form's `field`: empty is "not given"; anything else must read as a number (the API judges its range). */
export const numberOrUndefined = (data: FormData, field: string): number | undefined => {
  const value = data.get(field);
  const text = typeof value === "string" ? value.trim().replace(",", ".") : "";
  if (text === "") return undefined;
  const number = Number(text);
  if (!Number.isFinite(number)) throw new NotANumber(field);
  return number;
};

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
