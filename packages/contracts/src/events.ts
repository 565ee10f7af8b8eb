import { identityEvents } from "./account.ts";
import { bodyMetricsEvents } from "./body-metrics.ts";
import { importsEvents } from "./imports.ts";
import { nutritionEvents } from "./nutrition.ts";
import { workoutsEvents } from "./workouts.ts";

/**
 * Every event of the platform. Streams are declared from this whole list, so whichever service starts first
 * creates each stream with all of its subjects, and no service narrows a stream another one publishes to.
 */
export const allEvents = [
  ...Object.values(identityEvents),
  ...Object.values(bodyMetricsEvents),
  ...Object.values(nutritionEvents),
  ...Object.values(workoutsEvents),
  ...Object.values(importsEvents),
];
