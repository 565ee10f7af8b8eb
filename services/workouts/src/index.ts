export { buildWorkouts, workoutsDatabase } from "./app.ts";
export { loadWorkoutsConfig } from "./config.ts";
