// Screens fetched when first opened, so the first load carries only what the home screen needs.
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/** A page component that imports its module on first render; later renders use the module already loaded. */
export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>) => {
  let loaded: ComponentType<P> | undefined;
  return (props: P) => {
    const [state, setState] = useState<{ Page?: ComponentType<P>; failed?: boolean }>(() => (loaded ? { Page: loaded } : {}));
    useEffect(() => {
      if (state.Page) return;
      load().then(
        (Page) => {
          loaded = Page;
          setState({ Page });
        },
        () => setState({ failed: true }),
      );
    }, []);
    if (state.failed) return <p class="error" role="alert">This screen could not be loaded; check the connection and reload the page.</p>;
    return state.Page ? <state.Page {...props} /> : <p class="muted" aria-busy="true">Loading…</p>;
  };
};
