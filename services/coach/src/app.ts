import { fileURLToPath } from "node:url";
import { buildService, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
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

/** Its PostgreSQL schema and Prisma folder, for the launcher's shared PGlite template as well. */
export const coachDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "coach",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/**
 * Builds the coach: the only service that talks to a language model. It serves no API route of its own; the
 * gateway and the other services ask it over the bus (docs/architecture.md).
 */
export const buildCoach = ({ config, ...shared }: ServiceDependencies<CoachConfig>) =>
  buildService(
    {
      ...coachDatabase,
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
    { config, ...shared },
  );
