export { buildNutrition, SERVICE as NUTRITION } from "./app.ts";
export { loadNutritionConfig, nutritionEnv, type NutritionConfig } from "./config.ts";
