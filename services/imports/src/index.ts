export { buildImports, importsDatabase } from "./app.ts";
export { loadImportsConfig } from "./config.ts";
