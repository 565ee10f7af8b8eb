import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { Field, FormProblem, formError, text, type FormError } from "../ui.tsx";

/** The identity providers the gateway's configuration names; it writes them into index.html's meta tag. */
const providers = (document.querySelector('meta[name="fit-providers"]')?.getAttribute("content") ?? "")
  .split(",").map((id) => id.trim()).filter(Boolean);

/** Whether the gateway mails magic links or, without a mail transport, prints them on its console. */
const linkByEmail = document.querySelector('meta[name="fit-sign-in-link"]')?.getAttribute("content") === "email";

const providerLabel = (id: string) => ({ google: "Google", github: "GitHub" })[id] ?? id.toUpperCase();

export const SignInPage = () => {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const failed = new URLSearchParams(window.location.search).get("error");

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const email = text(new FormData(event.currentTarget as HTMLFormElement).get("email"));
    setBusy(true);
    setError(null);
    try {
      await api.sendMagicLink(email);
      setSentTo(email);
    } catch (caught) {
      setError(formError(caught, { email: "Email" }));
    } finally {
      setBusy(false);
    }
  };
  const withProvider = async (provider: string) => {
    try {
      const { url } = await api.providerSignIn(provider);
      if (url) window.location.assign(url);
    } catch (caught) {
      setError(formError(caught, {}));
    }
  };

  return (
    <main class="narrow" id="main">
      <h1>Sign in</h1>
      {failed && <p class="error" role="alert">Sign-in did not complete ({failed}). Try again.</p>}
      {sentTo ? (
        linkByEmail
          ? <p role="status">A sign-in link is on its way to <strong>{sentTo}</strong>. Open it in this browser.</p>
          : <p role="status">This server sends no email: the sign-in link for <strong>{sentTo}</strong> was printed on the server's console. Ask whoever runs it, or copy it from there, and open it in this browser.</p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field id="signin-email" label="Email" error={error}>
            <input id="signin-email" name="email" type="email" autocomplete="email" required autofocus />
          </Field>
          <button type="submit" disabled={busy}>{linkByEmail ? "Email me a sign-in link" : "Get a sign-in link"}</button>
          <FormProblem error={error} />
        </form>
      )}
      {providers.length > 0 && (
        <section aria-label="Other ways to sign in" class="providers">
          {providers.map((id) => (
            <button key={id} type="button" class="secondary" onClick={() => void withProvider(id)}>Continue with {providerLabel(id)}</button>
          ))}
        </section>
      )}
    </main>
  );
};
