import { fileURLToPath } from "node:url";
import type { Bus } from "@fit/bus";
import { buildService, serveAccountData } from "@fit/service-kit";
import type { WorkoutsConfig } from "./config.ts";
import { serveWorkoutQueries } from "./handlers/queries.ts";
import { describeRoute } from "./routes/describe.ts";
import { createActivityFileReader } from "./reader/activity-file-reader.ts";
import { importRoute } from "./routes/import.ts";
import { workoutRoutes } from "./routes/workouts.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "workouts";

/** Builds the workouts service (the workout log: described, imported, corrected); never listens. */
export const buildWorkouts = ({ config, bus }: { config: WorkoutsConfig; bus?: Bus }) =>
  buildService(
    {
      name: SERVICE,
      schema: "workouts",
      prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
      createStore,
      register: async (context) => {
        workoutRoutes(context);
        describeRoute(context, { coachTimeoutMs: config.COACH_TIMEOUT_MS });
        const reader = createActivityFileReader({ threads: config.WORKOUTS_IMPORT_THREADS, queue: config.WORKOUTS_IMPORT_QUEUE });
        importRoute(context, reader);
        return [
          ...serveWorkoutQueries(context.bus, context.store),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
          { stop: reader.close },
        ];
      },
    },
    { config, bus },
  );
