export { buildCoach, coachDatabase } from "./app.ts";
export { loadCoachConfig } from "./config.ts";
