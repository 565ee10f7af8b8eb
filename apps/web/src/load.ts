import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";

/** Data a page reads: its value, the error in words, and a reload after a write. */
export const useLoad = <T,>(read: () => Promise<T>, deps: unknown[]) => {
  const [state, setState] = useState<{ value?: T; error?: string }>({});
  const reload = useCallback(() => read().then((value) => setState({ value }), (error: unknown) =>
    setState({ error: error instanceof ApiError ? error.message : String(error) })), deps);
  useEffect(() => void reload(), [reload]);
  return { ...state, reload };
};
