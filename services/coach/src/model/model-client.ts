import OpenAI from "openai";
import { AppError } from "@fit/contracts";
import { z } from "zod";
import { toModelError } from "./model-errors.ts";
import { traceModelCall } from "./model-telemetry.ts";

export interface ModelSettings {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  retries: number;
  maxTokens: number;
}

/** A turn of text; the user's may also carry an image (a data: URL), which a vision-capable model reads. */
export type ChatTurn =
  | { role: "system" | "assistant"; content: string }
  | { role: "user"; content: string | ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[] };

export interface ModelAnswer<T> {
  value: T;
  tokens: number;
}


/**
 * One OpenAI-compatible endpoint, with the deadline and retry budget of our config instead of the client's
 * defaults (10 minutes, two retries). The deadline bounds the whole call, retries included; 400/401/403 are
 * never retried (the client retries only connection errors, 408, 409, 429 and 5xx).
 */
export const createModelClient = (settings: ModelSettings) => {
  const client = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey, timeout: settings.timeoutMs, maxRetries: settings.retries });

  const complete = (messages: ChatTurn[], responseFormat?: OpenAI.ResponseFormatJSONSchema) =>
    traceModelCall(settings.model, async () => {
      try {
        const completion = await client.chat.completions.create(
          { model: settings.model, messages, max_tokens: settings.maxTokens, ...(responseFormat ? { response_format: responseFormat } : {}) },
          { signal: AbortSignal.timeout(settings.timeoutMs) },
        );
        const message = completion.choices[0]?.message;
        if (message?.refusal) throw new AppError("upstream_failed", "the language model refused", "the model refused to answer");
        if (!message?.content) throw new AppError("upstream_failed", "the language model failed", "empty answer");
        const usage = { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 };
        return { text: message.content, tokens: completion.usage?.total_tokens ?? 0, usage, responseModel: completion.model };
      } catch (error) {
        throw toModelError(error, settings.timeoutMs, settings.apiKey);
      }
    });

  return {
    name: settings.model,

    chat: async (messages: ChatTurn[]): Promise<ModelAnswer<string>> => {
      const { text, tokens } = await complete(messages);
      return { value: text, tokens };
    },

    /**
     * JSON that `schema` accepts. A malformed answer gets one repair attempt (the model is shown its answer and
     * the error), then the call fails with 502.
     */
    structured: async <S extends z.ZodType>(name: string, schema: S, messages: ChatTurn[]): Promise<ModelAnswer<z.output<S>>> => {
      const format: OpenAI.ResponseFormatJSONSchema = {
        type: "json_schema",
        json_schema: { name, schema: z.toJSONSchema(schema, { io: "input" }), strict: false },
      };
      let tokens = 0;
      let turns = messages;
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await complete(turns, format);
        tokens += answer.tokens;
        const parsed = parseJson(answer.text, schema);
        if (parsed.success) return { value: parsed.data, tokens };
        turns = [
          ...messages,
          { role: "assistant", content: answer.text.slice(0, 4000) },
          { role: "user", content: `That was not valid: ${parsed.error}. Answer again with JSON matching the schema only.` },
        ];
      }
      throw new AppError("upstream_failed", "the language model failed", "malformed answer after one repair attempt");
    },
  };
};

const parseJson = <S extends z.ZodType>(text: string, schema: S) => {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return { success: false as const, error: "not JSON" };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { success: true as const, data: parsed.data }
    : { success: false as const, error: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
};
