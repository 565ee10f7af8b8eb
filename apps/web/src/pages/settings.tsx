import { useState } from "preact/hooks";
import { ApiError, api } from "../api.ts";
import { formatTime } from "../dates.ts";
import { useLoad } from "../load.ts";
import { ProfileSection } from "./profile.tsx";
import type { ApiKeyCreated, Scope } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, text, type FormError } from "../ui.tsx";

const SCOPES: readonly Scope[] = [
  "weight:read", "weight:write", "measurements:read", "measurements:write", "targets:read", "targets:write",
  "nutrition:read", "nutrition:write", "workouts:read", "workouts:write",
  "profile:read", "profile:write", "imports:read", "imports:write", "coach", "dashboard:read", "keys", "account",
];
const DATA_SCOPES = SCOPES.filter((scope) => scope !== "keys" && scope !== "account");

/**
 * The usual keys in one choice. "Everything" sends no scopes (the API's every data scope); "everything + export"
 * adds `account`, which the export needs and which also lets the key delete the account, so the form says so.
 */
const PRESETS = [
  { id: "read", label: "Read-only", scopes: SCOPES.filter((scope) => scope.endsWith(":read")), hint: "Reads every kind of data; writes nothing." },
  { id: "all", label: "Everything", scopes: null, hint: "Reads and writes every kind of data and talks to the coach; cannot manage keys, export or delete the account." },
  { id: "export", label: "Everything + export", scopes: [...DATA_SCOPES, "account"], hint: "Everything, plus the account scope: downloading the export, and also deleting the account." },
  { id: "custom", label: "Custom", scopes: null, hint: "Tick exactly what the key may do." },
] as const satisfies readonly { id: string; label: string; scopes: readonly Scope[] | null; hint: string }[];
type Preset = (typeof PRESETS)[number]["id"];
const KEY_LABELS = { name: "Name", scopes: "Scopes", expiresInDays: "Expires in (days)" } as const;

const Keys = () => {
  const { value: keys, error: loadError, reload } = useLoad(() => api.keys(), []);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const [preset, setPreset] = useState<Preset>("all");
  const [confirming, setConfirming] = useState<string | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const chosen = PRESETS.find((p) => p.id === preset)!;
    // Custom with nothing ticked is sent as an empty list, which the API refuses: ticking nothing is not "everything".
    const scopes = preset === "custom" ? (data.getAll("scopes") as Scope[]) : chosen.scopes;
    setError(null);
    try {
      const expiresInDays = numberOrUndefined(data, "expiresInDays");
      setCreated(await api.createKey({
        name: text(data.get("name")),
        ...(scopes ? { scopes: [...scopes] } : {}),
        ...(expiresInDays === undefined ? {} : { expiresInDays }),
      }));
      setCopied(false);
      form.reset();
      setPreset("all");
      await reload();
    } catch (caught) {
      setError(formError(caught, KEY_LABELS));
    }
  };
  const copy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.key).then(() => setCopied(true), () => setCopied(false));
  };
  const revoke = async (id: string) => {
    setConfirming(null);
    await api.revokeKey(id).catch((caught: ApiError) => setError({ message: caught.message }));
    await reload();
  };
  return (
    <section class="card" aria-labelledby="settings-keys">
      <h2 id="settings-keys">API keys</h2>
      {created && (
        <div class="created" role="status">
          <p>Your new key <strong>{created.name}</strong>. Copy it now: it is not shown again.</p>
          <div class="row"><input aria-label="New API key" data-testid="new-key" readOnly value={created.key} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" onClick={() => void copy()}>{copied ? "Copied" : "Copy"}</button>
            <button type="button" class="secondary" onClick={() => setCreated(null)}>Done</button></div>
        </div>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div class="row">
          <Field id="key-name" label="Name" error={error}><input id="key-name" name="name" required /></Field>
          <Field id="key-expiresInDays" label="Expires in (days)" error={error} hint="Empty: never"><input id="key-expiresInDays" name="expiresInDays" inputMode="numeric" /></Field>
        </div>
        <fieldset class={error?.field === "scopes" ? "field invalid" : "field"}>
          <legend>What the key may do</legend>
          <div class="presets">
            {PRESETS.map((p) => (
              <label key={p.id}>
                <input type="radio" name="preset" value={p.id} checked={preset === p.id} onChange={() => setPreset(p.id)} /> {p.label}
              </label>
            ))}
          </div>
          <small>{PRESETS.find((p) => p.id === preset)?.hint}</small>
          {preset === "custom" && (
            <div class="scopes" role="group" aria-label="Scopes">
              {SCOPES.map((scope) => <label key={scope}><input type="checkbox" name="scopes" value={scope} /> {scope}</label>)}
            </div>
          )}
          {error?.field === "scopes" && <p class="error" role="alert">{error.message}</p>}
        </fieldset>
        <button type="submit">Create key</button>
        <FormProblem error={error} />
      </form>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      <ul class="list" aria-label="API keys">
        {(keys ?? []).map((key) => (
          <li key={key.id}>
            <div>
              <strong>{key.name}</strong> <code>{key.start}…</code>
              <div class="muted">{key.scopes?.join(", ") ?? "every data scope"} · created {formatTime(key.createdAt)}
                {key.expiresAt ? ` · expires ${formatTime(key.expiresAt)}` : ""} · {key.lastUsedAt ? `used ${formatTime(key.lastUsedAt)}` : "never used"}</div>
            </div>
            <div class="actions">
              {confirming === key.id ? (
                <div class="danger-zone" role="group" aria-label={`Confirm revoking ${key.name ?? "the key"}`}>
                  <span>Revoke? Whatever uses it stops working at once; this cannot be undone.</span>{" "}
                  <button type="button" class="danger" onClick={() => void revoke(key.id)}>Yes, revoke</button>
                  <button type="button" class="secondary" onClick={() => setConfirming(null)}>Keep it</button>
                </div>
              ) : <button type="button" class="danger" onClick={() => setConfirming(key.id)} aria-label={`Revoke ${key.name ?? "key"}`}>Revoke</button>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
};

const Sessions = ({ onAppsChanged }: { onAppsChanged: () => void }) => {
  const { value: sessions, error, reload } = useLoad(() => api.sessions(), []);
  const [endApps, setEndApps] = useState(false);
  const act = (action: Promise<unknown>) => void action.finally(() => void reload());
  // Signing out a browser should not cut off an agent unasked: the apps go only when ticked (docs/decisions/0057-connected-apps.md).
  const signOutOthers = () => act(api.revokeOtherSessions(endApps).then(() => endApps && onAppsChanged()));
  return (
    <section class="card" aria-labelledby="settings-sessions">
      <h2 id="settings-sessions">Sessions</h2>
      {error && <p class="error" role="alert">{error}</p>}
      <ul class="list" aria-label="Sessions">
        {(sessions ?? []).map((session) => (
          <li key={session.id}>
            <div>
              <strong>{session.current ? "This browser" : session.userAgent ?? "unknown browser"}</strong>
              <div class="muted">signed in {formatTime(session.createdAt)}{session.ipAddress ? ` from ${session.ipAddress}` : ""}</div>
            </div>
            {!session.current && <div class="actions"><button type="button" class="danger" onClick={() => act(api.revokeSession(session.id))}>Sign out</button></div>}
          </li>
        ))}
      </ul>
      {(sessions?.length ?? 0) > 1 && (
        <div class="row">
          <button type="button" class="secondary" onClick={signOutOthers}>Sign out everywhere else</button>
          <label><input type="checkbox" checked={endApps} onChange={(event) => setEndApps(event.currentTarget.checked)} /> and disconnect every connected app</label>
        </div>
      )}
    </section>
  );
};

const ConnectedApps = ({ version }: { version: number }) => {
  const { value, error: loadError, reload } = useLoad(() => api.connectedApps(), [version]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const revoke = async (clientId: string) => {
    setConfirming(null);
    await api.revokeConnectedApp(clientId).catch((caught: ApiError) => setError(caught.message));
    await reload();
  };
  const apps = value?.items ?? [];
  return (
    <section class="card" aria-labelledby="settings-apps">
      <h2 id="settings-apps">Connected apps</h2>
      <p class="muted">Agents you allowed to act for you. Revoking one ends its access at once; it must ask you again to reconnect.</p>
      {(loadError ?? error) && <p class="error" role="alert">{loadError ?? error}</p>}
      {value && apps.length === 0 && <p>No connected apps.</p>}
      <ul class="list" aria-label="Connected apps">
        {apps.map((app) => (
          <li key={app.clientId}>
            <div>
              <strong>{app.name ?? "Unnamed app"}</strong>{app.selfRegistered && <span class="muted"> · self-registered</span>}
              <div class="muted">{app.scopes.join(", ")}{app.redirectHosts.length ? ` · returns to ${app.redirectHosts.join(", ")}` : ""} · connected {formatTime(app.createdAt)}
                {" · "}{app.lastUsedAt ? `last used ${formatTime(app.lastUsedAt)}` : "no refresh yet"}</div>
            </div>
            <div class="actions">
              {confirming === app.clientId ? (
                <div class="danger-zone" role="group" aria-label={`Confirm revoking ${app.name ?? app.clientId}`}>
                  <button type="button" class="danger" onClick={() => void revoke(app.clientId)}>Yes, revoke</button>
                  <button type="button" class="secondary" onClick={() => setConfirming(null)}>Keep it</button>
                </div>
              ) : <button type="button" class="danger" onClick={() => setConfirming(app.clientId)} aria-label={`Revoke ${app.name ?? app.clientId}`}>Revoke</button>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
};

const Account = () => {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    try {
      await api.deleteAccount();
      window.location.assign("/");
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught));
    }
  };
  return (
    <section class="card" aria-labelledby="settings-account">
      <h2 id="settings-account">Your data</h2>
      <p><a class="button secondary" href="/settings/import">Import your history</a>{" "}
        <a class="button secondary" href="/api/account/export" download>Download everything (JSON)</a></p>
      {confirming ? (
        <div class="danger-zone" role="group" aria-label="Confirm deletion">
          <p>Delete the account and everything in it? This cannot be undone.</p>
          <button type="button" class="danger" onClick={() => void remove()}>Yes, delete my account</button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>Keep it</button>
        </div>
      ) : <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete account…</button>}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
};

export const SettingsPage = () => {
  const [appsVersion, setAppsVersion] = useState(0);
  return (
    <>
      <h1>Settings</h1>
      <ProfileSection />
      <Keys />
      <Sessions onAppsChanged={() => setAppsVersion((version) => version + 1)} />
      <ConnectedApps version={appsVersion} />
      <Account />
    </>
  );
};
