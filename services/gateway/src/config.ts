import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";
import { identityEnv } from "./identity/config.ts";

const origins = z
  .string()
  .transform((list) => list.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url()));

export const gatewayEnv = baseEnv(3000).extend(identityEnv.shape).extend({
  /** Signs session cookies; the gateway alone never invents one (the all-in-one launcher does, see README). */
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  /** Extra origins allowed to send cookie-authenticated requests and to be magic-link callbacks. */
  TRUSTED_ORIGINS: origins.default([]),
  BODY_METRICS_URL: z.url().default("http://127.0.0.1:3101"),
  NUTRITION_URL: z.url().default("http://127.0.0.1:3102"),
  /** API requests per account per minute, whatever the credential. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Magic-link requests per client address per 15 minutes, and per email per hour. */
  SIGN_IN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  SIGN_IN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  /** Behind a load balancer: its addresses or CIDRs (comma-separated), whose X-Forwarded-For is believed. */
  TRUST_PROXY: z.string().optional(),
  /** Per-branch deadline of the dashboard's fan-out. */
  DASHBOARD_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2000),
});
export type GatewayConfig = z.output<typeof gatewayEnv>;

export const loadGatewayConfig = (env?: NodeJS.ProcessEnv) => loadConfig(gatewayEnv, env);
