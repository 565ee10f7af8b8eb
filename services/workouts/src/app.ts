import { fileURLToPath } from "node:url";
import { createOcrPool } from "@fit/photos";
import { buildService, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import type { WorkoutsConfig } from "./config.ts";
import { serveWorkoutImport } from "./handlers/imports.ts";
import { serveWorkoutQueries } from "./handlers/queries.ts";
import { describeRoute } from "./routes/describe.ts";
import { createActivityFileReader } from "./reader/activity-file-reader.ts";
import { importRoute } from "./routes/import.ts";
import { photoRoute } from "./routes/photo.ts";
import { workoutRoutes } from "./routes/workouts.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "workouts";

/** Its PostgreSQL schema and Prisma folder, for the launcher's shared PGlite template as well. */
export const workoutsDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "workouts",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/** Builds the workouts service (the workout log: described, imported, corrected); never listens. */
export const buildWorkouts = ({ config, ...shared }: ServiceDependencies<WorkoutsConfig>) =>
  buildService(
    {
      ...workoutsDatabase,
      createStore,
      idempotencyKeys: true,
      register: async (context) => {
        workoutRoutes(context);
        describeRoute(context, { coachTimeoutMs: config.COACH_TIMEOUT_MS });
        const reader = createActivityFileReader({ threads: config.WORKOUTS_IMPORT_THREADS, queue: config.WORKOUTS_IMPORT_QUEUE });
        importRoute(context, reader, { estimateTimeoutMs: config.COACH_ESTIMATE_TIMEOUT_MS });
        const ocr = createOcrPool({ threads: config.PHOTO_THREADS, queue: config.PHOTO_QUEUE });
        photoRoute(context, ocr, { coachTimeoutMs: config.COACH_TIMEOUT_MS, estimateTimeoutMs: config.COACH_ESTIMATE_TIMEOUT_MS });
        return [
          ...serveWorkoutQueries(context.bus, context.store),
          ...serveWorkoutImport(context, { estimateTimeoutMs: config.COACH_ESTIMATE_TIMEOUT_MS }),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
          { stop: reader.close },
          { stop: ocr.close },
        ];
      },
    },
    { config, ...shared },
  );
