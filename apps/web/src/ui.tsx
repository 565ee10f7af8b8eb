// Small shared pieces: labelled fields with their error beside them, the undo bar, number parsing.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";
import { onNavigate } from "./router.ts";

/** A form's failure: the field its message names, or the form as a whole. */
export interface FormError {
  field?: string | undefined;
  message: string;
}

export const formError = (error: unknown, fields: readonly string[]): FormError =>
  error instanceof ApiError ? { field: error.fieldIn(fields), message: error.message } : { message: String(error) };

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

/** Empty input is "not given"; anything else must read as a number (the API judges its range). */
export const numberOrUndefined = (value: FormDataEntryValue | null): number | undefined => {
  const text = typeof value === "string" ? value.trim().replace(",", ".") : "";
  return text === "" ? undefined : Number(text);
};

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
