import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A part of a user turn that is not plain text: text, or an image input (`image_url`, often a data: URL). */
export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } };

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string | ContentPart[] }[];
  response_format?: unknown;
  max_tokens?: number;
  max_completion_tokens?: number;
  [k: string]: unknown;
}

export interface ReceivedRequest {
  body: ChatRequest;
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

export type FakeBehaviour =
  | { reply: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { refusal: string }
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { delayMs: number; then: FakeBehaviour }
  | { hang: true };

export interface FakeOpenAi {
  /** Base URL including /v1, as an OpenAI client's `baseURL` takes it. */
  url: string;
  /** Every chat-completions request with a JSON body, in arrival order (streaming ones included, though refused). */
  received: ReceivedRequest[];
  /** Behaviour for the next requests, consumed in order; when the queue is empty, the fallback answers. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Decides from the request when nothing is queued; default: reply "ok". */
  setFallback(decide: (request: ChatRequest) => FakeBehaviour): void;
  /** Clears received, queue and fallback. */
  reset(): void;
  /** Stops the server and destroys open sockets, which also releases delayed and hung requests. */
  close(): Promise<void>;
}

type Headers = Record<string, string>;

const defaultFallback = (): FakeBehaviour => ({ reply: "ok" });

// Real clients keep sockets alive between calls; the server must not close one a client is about to reuse
// (undici's default idle timeout is 4 s), so it holds them longer and `close()` destroys them instead.
const keepAliveTimeoutMs = 30_000;

const newId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

/** The same rough rule OpenAI's docs give: one token is about four characters of English. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** What OpenAI counts for an image at high detail, 768 × 768 (four tiles of 170 plus 85): a stand-in for any image. */
const IMAGE_TOKENS = 765;

/** The text of a turn, its image inputs left out (the usage counts each as IMAGE_TOKENS, not by its base64). */
export const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part: ContentPart) => (part.type === "text" ? part.text : "")).join("")
      : JSON.stringify(content ?? "");

/** The image inputs of a request's turns, in order: each part's `image_url.url`. */
export const imageInputs = (request: ChatRequest): string[] =>
  request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.flatMap((part) => (part.type === "image_url" ? [part.image_url.url] : [])) : []));

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

const completion = (request: ChatRequest, message: { content: string | null; refusal: string | null }, usage?: { prompt_tokens: number; completion_tokens: number }) => {
  const promptTokens =
    usage?.prompt_tokens ?? estimateTokens(request.messages.map((m) => textOf(m.content)).join("")) + IMAGE_TOKENS * imageInputs(request).length;
  const completionTokens = usage?.completion_tokens ?? estimateTokens(message.content ?? message.refusal ?? "");
  return {
    id: newId("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
};

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Headers = {}) => {
  if (res.destroyed) return;
  const isText = typeof body === "string";
  res.writeHead(status, {
    "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
    "x-request-id": newId("req_"),
    ...headers,
  });
  res.end(isText ? body : JSON.stringify(body));
};

const readBody = async (req: http.IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

const parseChatRequest = (text: string): ChatRequest | undefined => {
  try {
    const parsed: unknown = JSON.parse(text);
    const looksLikeChat = typeof parsed === "object" && parsed !== null && Array.isArray((parsed as ChatRequest).messages);
    return looksLikeChat ? (parsed as ChatRequest) : undefined;
  } catch {
    return undefined;
  }
};

const answer = (res: http.ServerResponse, request: ChatRequest, behaviour: FakeBehaviour): void => {
  if ("hang" in behaviour) return;
  if ("delayMs" in behaviour) {
    const timer = setTimeout(() => answer(res, request, behaviour.then), behaviour.delayMs);
    // A client that gave up, or close() destroying the socket, ends the wait early.
    res.once("close", () => clearTimeout(timer));
    return;
  }
  if ("status" in behaviour) return send(res, behaviour.status, behaviour.body, behaviour.headers);
  if ("refusal" in behaviour) return send(res, 200, completion(request, { content: null, refusal: behaviour.refusal }));
  send(res, 200, completion(request, { content: behaviour.reply, refusal: null }, behaviour.usage));
};

const modelList = {
  object: "list",
  data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake-openai" }],
};

/** A real HTTP server speaking OpenAI's chat-completions protocol, scripted per request by the test. */
export const startFakeOpenAi = async (options: { port?: number; host?: string } = {}): Promise<FakeOpenAi> => {
  const host = options.host ?? "127.0.0.1";
  const received: ReceivedRequest[] = [];
  const queue: FakeBehaviour[] = [];
  let fallback: (request: ChatRequest) => FakeBehaviour = defaultFallback;

  const handleChat = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = Date.now();
    const request = parseChatRequest(await readBody(req));
    if (!request) {
      return send(res, 400, openAiError("The request body must be a JSON chat-completions request with `messages`.", "invalid_request_error", "invalid_json"));
    }
    received.push({ body: request, headers: { ...req.headers }, at });
    if (request.stream === true) {
      return send(res, 400, openAiError("Streaming is not supported by the fake OpenAI server.", "invalid_request_error", "unsupported_value", "stream"));
    }
    answer(res, request, queue.shift() ?? fallback(request));
  };

  const server = http.createServer((req, res) => {
    const route = `${req.method} ${new URL(req.url ?? "/", "http://fake").pathname}`;
    if (route === "POST /v1/chat/completions") {
      handleChat(req, res).catch((error: unknown) => {
        send(res, 500, openAiError(`fake-openai failed: ${String(error)}`, "server_error", null));
      });
    } else if (route === "GET /v1/models") {
      send(res, 200, modelList);
    } else {
      send(res, 404, openAiError(`Invalid URL (${route})`, "invalid_request_error", "unknown_url"));
    }
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}/v1`,
    received,
    enqueue: (...behaviours) => {
      queue.push(...behaviours);
    },
    setFallback: (decide) => {
      fallback = decide;
    },
    reset: () => {
      // Emptied in place so a test holding `received` keeps seeing the live list.
      received.length = 0;
      queue.length = 0;
      fallback = defaultFallback;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
