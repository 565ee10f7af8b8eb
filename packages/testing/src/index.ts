export * from "./infrastructure.ts";
export * from "./databases.ts";
