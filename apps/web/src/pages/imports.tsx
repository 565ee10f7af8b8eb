// Settings → Import: a file of any size uploaded to the imports API, followed while the server reads it, then its
// counts and refused rows, the imports before it, and undo. Which source a file is, the server recognises.
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../api.ts";
import { formatTime } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { ImportSummary } from "../types.ts";
import { text } from "../ui.tsx";
import { useUnits } from "../units.tsx";
import "../screens.css";

const FOLLOW_EVERY_MS = 1_000;
const RUNNING = new Set(["queued", "reading"]);
/** The states the screen follows to their end: reading, and removing the rows of an undo. */
const MOVING = new Set([...RUNNING, "undoing"]);
const UNDOABLE = new Set(["done", "failed", "cancelled"]);

/**
 * Text the API takes under its own type; any other file (an export's zip) goes as application/octet-stream, which
 * the API documents for every upload: the server recognises a file by its content.
 */
const ACCEPTED_TYPES = new Set(["text/csv", "text/plain"]);
const contentTypeOf = (file: File) => (ACCEPTED_TYPES.has(file.type) ? file.type : "application/octet-stream");

const STATE_WORDS: Record<ImportSummary["state"], string> = {
  queued: "Waiting to be read",
  reading: "Reading",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  undoing: "Removing its rows",
  undone: "Undone",
};

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const percent = (share: number) => `${Math.floor(share * 100)} %`;
const inWords = (caught: unknown) => (caught instanceof ApiError ? caught.message : String(caught));

/** Undo (or cancel, while it runs) behind a confirmation: it removes rows. */
const UndoImport = ({ summary, changed }: { summary: ImportSummary; changed: (summary: ImportSummary) => void }) => {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = RUNNING.has(summary.state);
  if (!running && !UNDOABLE.has(summary.state)) return null;
  const name = summary.fileName ?? "the import";
  const act = async () => {
    setConfirming(false);
    setError(null);
    await api.deleteImport(summary.id).then(changed, (caught: unknown) => setError(inWords(caught)));
  };
  return (
    <div class="actions">
      {confirming ? (
        <div class="danger-zone" role="group" aria-label={`Confirm ${running ? "cancelling" : "undoing"} ${name}`}>
          <span>{running
            ? "Stop reading it? Rows already added stay until you undo it."
            : `Remove the ${summary.counts.created} rows it added? Rows it skipped as already stored stay.`}</span>{" "}
          <button type="button" class="danger" onClick={() => void act()}>{running ? "Yes, cancel" : "Yes, undo"}</button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>Keep it</button>
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`${running ? "Cancel" : "Undo"} ${name}`}>
          {running ? "Cancel" : "Undo"}
        </button>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
};

/** Its counts as words: what was read, added, already there and refused. */
const Counts = ({ summary }: { summary: ImportSummary }) => (
  <dl class="import-counts">
    <dt>Rows read</dt><dd>{summary.counts.read}</dd>
    <dt>{`Added (${summary.kind})`}</dt><dd>{summary.counts.created}</dd>
    <dt>Already stored</dt><dd>{summary.counts.skipped}</dd>
    <dt>Refused</dt><dd>{summary.counts.refused}</dd>
    {Object.entries(summary.kinds).length > 1 && Object.entries(summary.kinds).map(([kind, counts]) => (
      <Fragment key={kind}>
        <dt>{kind}</dt><dd>{`${counts.created} added of ${counts.read}, ${counts.skipped} already stored`}</dd>
      </Fragment>
    ))}
  </dl>
);

const Refusals = ({ summary }: { summary: ImportSummary }) => {
  if (summary.refusals.length === 0) return null;
  const unlisted = summary.counts.refused - summary.refusals.length;
  return (
    <div class="numbers">
      <table aria-label={`Refused rows of ${summary.fileName ?? "the import"}`}>
        <thead><tr><th scope="col">Line</th><th scope="col">Why</th></tr></thead>
        <tbody>
          {summary.refusals.map((refusal) => (
            <tr key={refusal.line}><th scope="row">{refusal.line}</th><td class="reason">{refusal.reason}</td></tr>
          ))}
        </tbody>
      </table>
      {unlisted > 0 && <p class="muted">…and {unlisted} more refused rows.</p>}
    </div>
  );
};

/** The import just started, followed until it ends: its progress, then its summary. */
const Followed = ({ summary, changed }: { summary: ImportSummary; changed: (summary: ImportSummary) => void }) => {
  const running = RUNNING.has(summary.state);
  return (
    <section class="card" aria-labelledby="import-followed" data-testid="import-followed">
      <h2 id="import-followed">{summary.fileName ?? "Import"}</h2>
      <p role="status">
        <strong>{STATE_WORDS[summary.state]}</strong>
        {running ? ` · ${percent(summary.progress)} of ${size(summary.bytes)}` : summary.layout ? ` · read as ${summary.layout.replace("_", " ")}` : ""}
      </p>
      {running && <progress aria-label="Read so far" max={1} value={summary.progress} />}
      {summary.error && <p class="error" role="alert">{summary.error}</p>}
      <Counts summary={summary} />
      <Refusals summary={summary} />
      <UndoImport summary={summary} changed={changed} />
    </section>
  );
};

const NewImport = ({ started }: { started: (summary: ImportSummary) => void }) => {
  const { units } = useUnits();
  const profile = useLoad(() => api.profile(), []);
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!file) return setError("Choose a file first.");
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    setError(null);
    setSent(0);
    try {
      const tz = text(data.get("tz"));
      const unit = data.get("unit") === "lb" ? "lb" : "kg";
      started(await api.startImport(file, contentTypeOf(file), { ...(tz ? { tz } : {}), unit }, setSent));
      setFile(null);
      form.reset();
    } catch (caught) {
      setError(inWords(caught));
    } finally {
      setSent(null);
    }
  };
  return (
    <section class="card" aria-labelledby="import-new">
      <h2 id="import-new">Import a file</h2>
      <p class="muted">An export of the app you used before, or a CSV of weigh-ins from a scale or weight app. It is read in the
        background: you can leave this page. The same readings imported twice are stored once.</p>
      <form aria-label="New import" onSubmit={(event) => void submit(event)} noValidate>
        <div class="field">
          <label for="import-file">File</label>
          <input id="import-file" name="file" type="file" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
          {file && <small>{file.name}, {size(file.size)}</small>}
        </div>
        <div class="row">
          <div class="field">
            <label for="import-tz">Time zone of times written without one</label>
            <input id="import-tz" name="tz" defaultValue={profile.value?.timeZone ?? ""} key={profile.value?.timeZone} autoComplete="off" />
          </div>
          <div class="field">
            <label for="import-unit">Weights written without a unit</label>
            <select id="import-unit" name="unit" defaultValue={units === "metric" ? "kg" : "lb"}>
              <option value="kg">kg</option>
              <option value="lb">lb</option>
            </select>
          </div>
        </div>
        <button type="submit" disabled={sent !== null}>Import</button>
        {sent !== null && (
          <p role="status">Uploading… {percent(sent)} <progress aria-label="Uploaded so far" max={1} value={sent} /></p>
        )}
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </section>
  );
};

export const ImportPage = () => {
  const list = useLoad(() => api.imports(), []);
  const [followed, setFollowed] = useState<ImportSummary | null>(null);
  const following = followed !== null && MOVING.has(followed.state);
  // Asked again each second while it runs; the list is read again when it ends.
  useEffect(() => {
    if (!following) return;
    const timer = setTimeout(() => {
      api.importStatus(followed.id).then((summary) => {
        setFollowed(summary);
        if (!MOVING.has(summary.state)) void list.reload();
      }, () => setFollowed({ ...followed }));
    }, FOLLOW_EVERY_MS);
    return () => clearTimeout(timer);
  }, [followed]);
  const changed = (summary: ImportSummary) => {
    // An undo is followed to its end like a reading, wherever it was asked for.
    if (followed?.id === summary.id || MOVING.has(summary.state)) setFollowed(summary);
    void list.reload();
  };
  const started = (summary: ImportSummary) => {
    setFollowed(summary);
    void list.reload();
  };
  const items = list.value?.items ?? [];
  return (
    <>
      <p><a href="/settings">← Back to Settings</a></p>
      <h1>Import your history</h1>
      <NewImport started={started} />
      {followed && <Followed summary={followed} changed={changed} />}
      <section class="card" aria-labelledby="import-past">
        <h2 id="import-past">Past imports</h2>
        {list.error && <p class="error" role="alert">{list.error}</p>}
        {list.value && items.length === 0 && <p>No imports yet.</p>}
        <ul class="list" aria-label="Past imports">
          {items.map((item) => (
            <li key={item.id}>
              <div>
                <strong>{item.fileName ?? "Unnamed file"}</strong> · {STATE_WORDS[item.state]}
                <div class="muted">{formatTime(item.createdAt)} · {size(item.bytes)} · {item.counts.created} added,{" "}
                  {item.counts.skipped} already stored, {item.counts.refused} refused</div>
                {item.refusals.length > 0 && (
                  <details class="numbers"><summary>Refused rows</summary><Refusals summary={item} /></details>
                )}
              </div>
              <UndoImport summary={item} changed={changed} />
            </li>
          ))}
        </ul>
      </section>
    </>
  );
};
