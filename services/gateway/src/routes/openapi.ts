import { buildOpenApiDocument } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";
import { authPaths } from "./auth-paths.ts";

/** Generated once from the contracts: the same schemas that validate every request. */
export const openApiRoute = (app: HttpApp, { version, publicUrl }: { version: string; publicUrl: string }) => {
  const document = buildOpenApiDocument({ version, serverUrl: publicUrl, extraPaths: authPaths });
  app.get("/openapi.json", () => document);
};
