export * from "./infrastructure.ts";
export * from "./databases.ts";
export * from "./ports.ts";
export * from "./streams.ts";
export * from "./fake-openai.ts";
export * from "./replicas.ts";
