import { fileURLToPath } from "node:url";
import type { Bus } from "@fit/bus";
import { buildService, serveAccountData } from "@fit/service-kit";
import type { CoachConfig } from "./config.ts";
import { createCoach } from "./handlers/coach.ts";
import { serveCoachQueries } from "./handlers/queries.ts";
import { createStore, type Store } from "./store/store.ts";

const SERVICE = "coach";
const HOUR_MS = 3_600_000;

/** Forgets stale cache entries and old usage hourly; a failed pass is retried at the next. */
const startPruning = (store: Store, log: { error(obj: object, msg: string): void }) => {
  const timer = setInterval(() => void store.prune().catch((error: unknown) => log.error({ err: error }, "coach pruning failed")), HOUR_MS);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
};

/**
 * Builds the coach: the only service that talks to a language model. It serves no API route of its own; the
 * gateway and the other services ask it over the bus (docs/architecture.md).
 */
export const buildCoach = ({ config, bus }: { config: CoachConfig; bus?: Bus }) =>
  buildService(
    {
      name: SERVICE,
      schema: "coach",
      prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
      createStore,
      register: async ({ app, store, bus }) => {
        const coach = await createCoach({ config, store, bus, log: app.log });
        return [
          ...serveCoachQueries(bus, coach, store),
          ...(await serveAccountData(bus, SERVICE, store.accountData)),
          startPruning(store, app.log),
        ];
      },
    },
    { config, bus },
  );
