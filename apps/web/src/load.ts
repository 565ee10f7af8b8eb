import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";

const inWords = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/** Data a page reads: its value, the error in words, and a reload after a write. */
export const useLoad = <T,>(read: () => Promise<T>, deps: unknown[]) => {
  const [state, setState] = useState<{ value?: T; error?: string }>({});
  const reload = useCallback(() => read().then((value) => setState({ value }), (error: unknown) =>
    setState({ error: inWords(error) })), deps);
  useEffect(() => void reload(), [reload]);
  return { ...state, reload };
};

/**
 * A list the API hands out in keyset pages, newest first: the first page, then the next one each time `more` is
 * called (an "Older" button), so every item is reachable however long the history. `reload` starts again from
 * the newest, after a write.
 */
export const usePages = <T,>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>) => {
  const [state, setState] = useState<{ items?: T[]; next: string | null; error?: string; busy: boolean }>({ next: null, busy: true });
  const reload = useCallback(() => {
    setState((current) => ({ ...current, busy: true }));
    return read(undefined).then((page) => setState({ items: page.items, next: page.nextCursor, busy: false }),
      (error: unknown) => setState({ next: null, error: inWords(error), busy: false }));
  }, []);
  const more = () => {
    const cursor = state.next;
    if (!cursor || state.busy) return;
    setState((current) => ({ ...current, busy: true }));
    void read(cursor).then(
      (page) => setState((current) => ({ items: [...(current.items ?? []), ...page.items], next: page.nextCursor, busy: false })),
      (error: unknown) => setState((current) => ({ ...current, error: inWords(error), busy: false })),
    );
  };
  useEffect(() => void reload(), [reload]);
  return { items: state.items, error: state.error, busy: state.busy, hasMore: state.next !== null, more, reload };
};
