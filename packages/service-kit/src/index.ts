export * from "./app.ts";
export * from "./assertion.ts";
export * from "./config.ts";
export * from "./http-errors.ts";
export * from "./logger.ts";
export * from "./operation-route.ts";
export * from "./run.ts";
export * from "./cursor.ts";
