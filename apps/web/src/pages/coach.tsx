import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { localDay } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { ChatMessage } from "../types.ts";
import { Field, text } from "../ui.tsx";
import "../screens.css";

/** The API takes at most 20 messages a turn; older ones stay on screen but are no longer sent. */
const SENT_MESSAGES = 20;

/**
 * The server keeps no conversation, so the browser does: in this tab's sessionStorage (gone when the tab closes, so
 * a shared computer does not keep it), under the account's id (another account signed in here does not see it).
 */
const storageKey = (userId: string) => `fit.coach.${userId}`;

const readHistory = (key: string): ChatMessage[] => {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(key) ?? "[]");
    return Array.isArray(stored) ? (stored as ChatMessage[]) : [];
  } catch {
    return [];
  }
};

/** The last messages the API accepts, starting with the person's (a reply without its question means little). */
const toSend = (history: readonly ChatMessage[]): ChatMessage[] => {
  const recent = history.slice(-SENT_MESSAGES);
  return recent[0]?.role === "assistant" ? recent.slice(1) : recent;
};

/** Why there is no reply, in words: the server's reason and what the person can do about it. */
const failureOf = (error: unknown): string => {
  if (!(error instanceof ApiError)) return String(error);
  const reason = error.detail ? `${error.message} (${error.detail})` : error.message;
  if (error.status === 429) return `The coach cannot answer now: ${reason}. Try again later.`;
  if (error.status === 502 || error.status === 503 || error.status === 504) {
    return `The coach's language model is unavailable: ${reason}. Your message is kept; try again in a moment.`;
  }
  return `The coach could not answer: ${reason}.`;
};

const Conversation = ({ userId }: { userId: string }) => {
  const key = storageKey(userId);
  const [history, showHistory] = useState<ChatMessage[]>(() => readHistory(key));
  const [failure, setFailure] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const end = useRef<HTMLLIElement>(null);
  // Stored as it changes, not after the next paint: a reload right after "Clear conversation" must not bring it back.
  const setHistory = (messages: ChatMessage[]) => {
    sessionStorage.setItem(key, JSON.stringify(messages));
    showHistory(messages);
  };
  useEffect(() => end.current?.scrollIntoView({ block: "nearest" }), [history]);

  const ask = async (messages: ChatMessage[]) => {
    setFailure(null);
    setWaiting(true);
    try {
      const { reply } = await api.askCoach({ messages: toSend(messages), date: localDay() });
      setHistory([...messages, { role: "assistant", content: reply }]);
    } catch (caught) {
      setFailure(failureOf(caught));
    } finally {
      setWaiting(false);
    }
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const content = text(new FormData(form).get("message"));
    if (!content || waiting) return;
    const messages = [...history, { role: "user" as const, content }];
    setHistory(messages);
    form.reset();
    void ask(messages);
  };
  const unanswered = history.at(-1)?.role === "user";
  return (
    <>
      {history.length === 0 ? (
        <p class="muted">Ask about today's food, your targets or your weight trend: the coach reads what you logged.</p>
      ) : (
        <ol class="chat" aria-label="Conversation">
          {history.map((message, i) => (
            <li key={i} class={`bubble ${message.role}`}>
              <span class="visually-hidden">{message.role === "user" ? "You:" : "Coach:"}</span>
              {message.content}
            </li>
          ))}
          <li ref={end} class="chat-end" aria-hidden="true" />
        </ol>
      )}
      <div aria-live="polite">
        {waiting && <p class="muted">The coach is thinking…</p>}
      </div>
      {failure && (
        <div class="error" role="alert">
          <p>{failure}</p>
          {unanswered && !waiting && <button type="button" class="secondary" onClick={() => void ask(history)}>Try again</button>}
        </div>
      )}
      <form class="card chat-form" onSubmit={submit} aria-label="Ask the coach">
        <Field id="coach-message" label="Your message">
          <textarea id="coach-message" name="message" rows={2} maxLength={4000} required
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </Field>
        <button type="submit" disabled={waiting}>Send</button>
        <button type="button" class="secondary" disabled={history.length === 0 || waiting}
          onClick={() => { setHistory([]); setFailure(null); }}>Clear conversation</button>
      </form>
    </>
  );
};

export const CoachPage = () => {
  const { value: session, error } = useLoad(() => api.session(), []);
  return (
    <>
      <h1>Coach</h1>
      <p><a href="/coach/meal">Describe a meal</a> to log it from words, with a preview to correct first.</p>
      {error && <p class="error" role="alert">{error}</p>}
      {session && <Conversation userId={session.user.id} />}
    </>
  );
};
