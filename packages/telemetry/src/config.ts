import { z } from "zod";

const TelemetryEnv = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  /** Where Prometheus scrapes /metrics; unset, no metrics are collected at all. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The interface the metrics port listens on; all of them by default, as a scraper in a cluster needs. */
  METRICS_HOST: z.string().min(1).optional(),
});

export type TelemetryConfig = z.infer<typeof TelemetryEnv>;

/** The OpenTelemetry variables, read once (the SDK reads its other OTEL_* variables itself). */
export const loadTelemetryConfig = (env: NodeJS.ProcessEnv = process.env): TelemetryConfig => TelemetryEnv.parse(env);
