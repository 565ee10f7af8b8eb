export { buildWorkouts } from "./app.ts";
export { loadWorkoutsConfig } from "./config.ts";
