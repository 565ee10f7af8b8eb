import { z } from "zod";

const TelemetryEnv = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  /** Where Prometheus scrapes /metrics; unset, no metrics are collected at all. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The interface the metrics port listens on; by default the service's own (HOST), loopback unless it is set. */
  METRICS_HOST: z.string().min(1).optional(),
  HOST: z.string().min(1).optional(),
});

export type TelemetryConfig = z.infer<typeof TelemetryEnv>;

/** The OpenTelemetry variables, read once (the SDK reads its other OTEL_* variables itself). */
export const loadTelemetryConfig = (env: NodeJS.ProcessEnv = process.env): TelemetryConfig => TelemetryEnv.parse(env);
