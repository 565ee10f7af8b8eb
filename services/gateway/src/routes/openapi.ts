import { buildOpenApiDocument } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";

/** Generated once from the contracts: the same schemas that validate every request. */
export const openApiRoute = (app: HttpApp, { version, publicUrl }: { version: string; publicUrl: string }) => {
  const document = buildOpenApiDocument({ version, serverUrl: publicUrl });
  app.get("/openapi.json", () => document);
};
