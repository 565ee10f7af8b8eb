import { bodyMetricsOperations } from "./operations/body-metrics.ts";
import { gatewayOperations } from "./operations/gateway.ts";
import { importsOperations } from "./operations/imports.ts";
import { insightsOperations } from "./operations/insights.ts";
import { nutritionOperations } from "./operations/nutrition.ts";
import type { Operation } from "./operations/operation.ts";
import { workoutsOperations } from "./operations/workouts.ts";

export type { Method, Operation } from "./operations/operation.ts";

/** Every HTTP operation, a file per service that serves it (operations/), in the order /openapi.json lists them. */
export const operations = {
  ...bodyMetricsOperations,
  ...nutritionOperations,
  ...workoutsOperations,
  ...importsOperations,
  ...insightsOperations,
  ...gatewayOperations,
};

export const operationList: readonly Operation[] = Object.values(operations);

export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, "{$1}");
