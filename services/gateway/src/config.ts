import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const origins = z
  .string()
  .transform((list) => list.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url()));

export const gatewayEnv = baseEnv(3000).extend({
  /** The address people and clients use; decides cookie names (__Secure- on https) and link URLs. */
  PUBLIC_URL: z.url().default("http://localhost:3000"),
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  /** Extra origins allowed to send cookie-authenticated requests and to be magic-link callbacks. */
  TRUSTED_ORIGINS: origins.default([]),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Fitness <no-reply@localhost>"),
  BODY_METRICS_URL: z.url().default("http://127.0.0.1:3101"),
  NUTRITION_URL: z.url().default("http://127.0.0.1:3102"),
  /** Per-branch deadline of the dashboard's fan-out. */
  DASHBOARD_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2000),
});
export type GatewayConfig = z.output<typeof gatewayEnv>;

export const loadGatewayConfig = (env?: NodeJS.ProcessEnv) => loadConfig(gatewayEnv, env);
