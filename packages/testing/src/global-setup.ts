import type { TestProject } from "vitest/node";
import { findInfrastructure } from "./infrastructure.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    natsUrl: string;
  }
}

/** Finds PostgreSQL and NATS once for the whole integration run and hands their URLs to every test file. */
export default async function setup(project: TestProject) {
  const infrastructure = await findInfrastructure();
  project.provide("databaseUrl", infrastructure.databaseUrl);
  project.provide("natsUrl", infrastructure.natsUrl);
  return () => infrastructure.stop();
}
