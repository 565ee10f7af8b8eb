// Client routes on the History API; the gateway answers index.html for any of them (SPA fallback).
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

/** Runs `listener` after every navigation, back and forward included. */
export const onNavigate = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
};

export const navigate = (to: string) => {
  history.pushState(null, "", to);
  for (const listener of listeners) listener();
};

/** The current path and query, re-rendered on navigation (links, back and forward). */
export const useLocation = () => {
  const [location, setLocation] = useState(() => new URL(window.location.href));
  useEffect(() => {
    const update = () => setLocation(new URL(window.location.href));
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return location;
};

/** Same-origin links navigate without a page load; a modified click (new tab) is left to the browser. */
export const interceptLinks = () =>
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest("a");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (link.origin !== window.location.origin || link.hasAttribute("download") || link.pathname.startsWith("/api/")) return;
    event.preventDefault();
    navigate(link.pathname + link.search);
  });
