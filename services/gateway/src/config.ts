import { fileURLToPath } from "node:url";
import { z } from "zod";
import { baseEnv, ConfigError, loadConfig, resolveDataDir } from "@fit/service-kit";

const origins = z
  .string()
  .transform((list) => list.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url()));

const gatewayEnv = baseEnv(3000).extend({
  /** The address people use; https turns on Secure, __Secure- cookies. Unset: http://<HOST>:<PORT>. */
  PUBLIC_URL: z.url().optional(),
  /** Signs session cookies; the gateway alone never invents one (the all-in-one launcher does, see README). */
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  /** smtp(s)://user:pass@host:port; unset: magic links are printed instead of mailed. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.string().default("Fitness <no-reply@localhost>"),
  /** Extra origins allowed to send cookie-authenticated requests and to be magic-link callbacks. */
  TRUSTED_ORIGINS: origins.default([]),
  BODY_METRICS_URL: z.url().default("http://127.0.0.1:3101"),
  NUTRITION_URL: z.url().default("http://127.0.0.1:3102"),
  WORKOUTS_URL: z.url().default("http://127.0.0.1:3103"),
  INSIGHTS_URL: z.url().default("http://127.0.0.1:3105"),
  IMPORTS_URL: z.url().default("http://127.0.0.1:3106"),
  /** API requests per account per minute, whatever the credential. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Refused requests (no, bad or revoked credential) per client address per minute. */
  REFUSED_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Magic-link requests per client address per 15 minutes, and per email per hour. */
  SIGN_IN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  SIGN_IN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  /** OAuth client registrations per client address per 15 minutes: a budget apart from sign-in's. */
  REGISTRATION_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /** Exchanges for a credential (OAuth token and revocation requests, magic-link follows, consents) per client address per minute. */
  EXCHANGE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  /**
   * How long a resolved credential is trusted from memory, and how many are held (docs/decisions/0027-credential-cache.md).
   * Revocations reach every replica at once over NATS; this bounds what a lost message could leave. 0: no cache.
   */
  CREDENTIAL_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  CREDENTIAL_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(10_000),
  /** Behind a load balancer: its addresses or CIDRs (comma-separated), whose X-Forwarded-For is believed. */
  TRUST_PROXY: z.string().optional(),
  /** Per-branch deadline of the dashboard's fan-out. */
  DASHBOARD_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2000),
  /** How long /api/agent waits for the coach: above its model timeout plus one retry, below the 30 s request limit. */
  COACH_TIMEOUT_MS: z.coerce.number().int().min(100).max(29_000).default(25_000),
  /** The scale-ingest token (POST /api/ingest/weight); unset, that route answers 404. */
  INGEST_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /** How long an ingested reading may take body-metrics to store. */
  INGEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(29_000).default(5000),
  /** Sign-in through an OpenID Connect provider (all three or none); its discovery document is read at start. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The provider's id in sign-in requests and in its redirect URI, <PUBLIC_URL>/api/auth/callback/<OIDC_NAME>. */
  OIDC_NAME: z.string().regex(/^[a-z0-9-]{1,32}$/, "must be lower-case letters, digits or -").refine((name) => !["google", "github"].includes(name), "google and github are taken by their presets").default("oidc"),
  /** Space- or comma-separated; `openid` is always asked for. */
  OIDC_SCOPES: z.string().transform((list) => list.split(/[\s,]+/).filter(Boolean)).default(["openid", "email", "profile"]),
  /** Google and GitHub sign-in, each when both its variables are set. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  /** Budget of one step with an identity provider: the discovery read at start, a sign-in start, a callback. */
  IDENTITY_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(29_000).default(10_000),
  /** The web app's build, served at `/`; by default apps/web/dist of this checkout. */
  WEB_APP_DIR: z.string().min(1).default(fileURLToPath(new URL("../../../apps/web/dist/", import.meta.url))),
});

type GatewayEnv = z.output<typeof gatewayEnv>;

/** A provider is configured by all of its variables or by none: half a configuration is a mistake, said at start. */
const allOrNone = (names: string, ...values: (string | undefined)[]) => {
  const set = values.filter((value) => value !== undefined).length;
  if (set > 0 && set < values.length) throw new ConfigError(`Invalid configuration:\n  ${names} must be set together`);
};

const identityProviders = ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: oidcId, OIDC_CLIENT_SECRET: oidcSecret, ...env }: GatewayEnv) => {
  allOrNone("OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET", issuer, oidcId, oidcSecret);
  allOrNone("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET", env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET);
  allOrNone("GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET", env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET);
  const pair = (clientId?: string, clientSecret?: string) => (clientId && clientSecret ? { clientId, clientSecret } : undefined);
  return {
    oidc: issuer && oidcId && oidcSecret ? { id: env.OIDC_NAME, issuer, clientId: oidcId, clientSecret: oidcSecret, scopes: env.OIDC_SCOPES } : undefined,
    google: pair(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET),
    github: pair(env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET),
  };
};
export type IdentityProviders = ReturnType<typeof identityProviders>;

/** Unset, the public address is where the gateway listens (a wildcard address is reached as localhost). */
const withPublicUrl = <C extends { PUBLIC_URL?: string | undefined; HOST: string; PORT: number }>(config: C) => {
  const host = ["0.0.0.0", "::", ""].includes(config.HOST) ? "localhost" : config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return { ...config, PUBLIC_URL: config.PUBLIC_URL ?? `http://${host}:${config.PORT}` };
};

export const loadGatewayConfig = (env?: NodeJS.ProcessEnv) => {
  const config = withPublicUrl(loadConfig(gatewayEnv, env));
  return { ...config, IDENTITY_PROVIDERS: identityProviders(config) };
};
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

/**
 * What the create-key CLI reads: the same variables, only those it needs, so it runs without the gateway's
 * other secrets. It issues keys and never signs a session, so a missing BETTER_AUTH_SECRET is no error.
 */
const createKeyEnv = gatewayEnv
  .pick({ HOST: true, PORT: true, PUBLIC_URL: true, MAIL_FROM: true, DATA_DIR: true, DATABASE_URL: true })
  .extend({ BETTER_AUTH_SECRET: gatewayEnv.shape.BETTER_AUTH_SECRET.optional() });

export const loadCreateKeyConfig = (env: NodeJS.ProcessEnv = process.env) => {
  const config = withPublicUrl(loadConfig(createKeyEnv, env));
  return { ...config, DATA_DIR: resolveDataDir(config.DATA_DIR, env) };
};
export type CreateKeyConfig = ReturnType<typeof loadCreateKeyConfig>;
