export { buildCoach } from "./app.ts";
export { loadCoachConfig } from "./config.ts";
