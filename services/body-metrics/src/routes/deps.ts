import type { Store } from "../store/store.ts";

export interface RouteDeps {
  store: Store;
  /** Lets the outbox relay publish a just-committed event now instead of at its next poll. */
  relay: { kick(): void };
}
