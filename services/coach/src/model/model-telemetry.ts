import { inSpan, lazyInstruments } from "@fit/telemetry";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { AppError } from "@fit/contracts";

const tracer = trace.getTracer("@fit/coach");

// Names from OpenTelemetry's generative-AI semantic conventions, so standard dashboards read them.
const instruments = lazyInstruments("@fit/coach", (meter) => ({
  duration: meter.createHistogram("gen_ai.client.operation.duration", {
    description: "Language-model calls, retries included; error.type is set on a failure (timeout, upstream_failed)",
    unit: "s",
  }),
  tokens: meter.createHistogram("gen_ai.client.token.usage", { description: "Tokens per model call, by gen_ai.token.type", unit: "{token}" }),
}));

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Runs one chat completion in a client span named as the conventions say (`chat <model>`), with the model and
 * the tokens it reports as attributes, and records its duration and tokens. The prompt is never recorded.
 */
export const traceModelCall = async <T extends { usage: Usage; responseModel?: string | undefined }>(
  model: string,
  call: () => Promise<T>,
): Promise<T> => {
  const base = { "gen_ai.operation.name": "chat", "gen_ai.request.model": model };
  const startedAt = performance.now();
  return inSpan(tracer, `chat ${model}`, { kind: SpanKind.CLIENT, attributes: base }, context.active(), async (span) => {
    let errorType: string | undefined;
    try {
      const result = await call();
      const { inputTokens, outputTokens } = result.usage;
      span.setAttributes({
        "gen_ai.usage.input_tokens": inputTokens,
        "gen_ai.usage.output_tokens": outputTokens,
        ...(result.responseModel ? { "gen_ai.response.model": result.responseModel } : {}),
      });
      instruments().tokens.record(inputTokens, { ...base, "gen_ai.token.type": "input" });
      instruments().tokens.record(outputTokens, { ...base, "gen_ai.token.type": "output" });
      return result;
    } catch (err) {
      errorType = err instanceof AppError ? err.code : "error";
      span.setAttribute("error.type", errorType);
      throw err;
    } finally {
      instruments().duration.record((performance.now() - startedAt) / 1_000, { ...base, ...(errorType ? { "error.type": errorType } : {}) });
    }
  });
};
