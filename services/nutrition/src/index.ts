export { buildNutrition, nutritionDatabase } from "./app.ts";
export { loadNutritionConfig } from "./config.ts";
