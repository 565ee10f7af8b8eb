import { z } from "zod";

const TelemetryEnv = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
});

/** The OpenTelemetry variables, read once (the SDK reads its other OTEL_* variables itself). */
export const loadTelemetryConfig = (env: NodeJS.ProcessEnv = process.env) => TelemetryEnv.parse(env);
