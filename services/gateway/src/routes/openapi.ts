import { buildOpenApiDocument } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";

/**
 * Generated from the contracts (the same schemas that validate every request) on its first request, then kept:
 * built at start it was ~0.15 s of every embedded start (docs/performance.md, "Embedded start").
 */
export const openApiRoute = (app: HttpApp, { version, publicUrl }: { version: string; publicUrl: string }) => {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get("/openapi.json", () => (document ??= buildOpenApiDocument({ version, serverUrl: publicUrl })));
};
