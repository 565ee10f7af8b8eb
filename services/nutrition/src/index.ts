export { buildNutrition } from "./app.ts";
export { loadNutritionConfig } from "./config.ts";
