import type { HostileRequest } from "./requests.ts";
import { LEAK } from "./values.ts";

export interface Outcome {
  index: number;
  request: HostileRequest;
  status: number | undefined;
  text: string;
  ms: number;
  /** What the reply broke; empty when it is acceptable. */
  problems: string[];
}

/** The error envelope, and nothing else: `{"error": string, "detail"?: string}`. */
const isEnvelope = (text: string) => {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
    const { error, detail, ...rest } = body as Record<string, unknown>;
    return typeof error === "string" && (detail === undefined || typeof detail === "string") && Object.keys(rest).length === 0;
  } catch {
    return false;
  }
};

/** Judges one reply by the rules every reply obeys, whatever was sent. */
const judge = (request: HostileRequest, status: number, text: string): string[] => {
  const problems: string[] = [];
  if (status >= 500) problems.push(`status ${status}`);
  if (status >= 400 && !isEnvelope(text)) problems.push("not in the error envelope");
  const leak = LEAK.exec(text);
  if (leak) problems.push(`leaks ${JSON.stringify(leak[0])}`);
  if (request.mustRefuse && status < 400) problems.push(`accepted (${status}) a request the contract refuses`);
  return problems;
};

const send = async (base: string, request: HostileRequest, index: number): Promise<Outcome> => {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(base + request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { index, request, status: response.status, text, ms: ms(), problems: judge(request, response.status, text) };
  } catch (error) {
    // A dropped connection or no answer at all is a failure like a 500: the client learns nothing.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
    return { index, request, status: undefined, text: "", ms: ms(), problems: [`no reply (${why})`] };
  }
};

/** Sends every request with a few in flight at once, as a small crowd of clients would. */
export const sendAll = async (base: string, requests: HostileRequest[], inFlight: number): Promise<Outcome[]> => {
  const outcomes: Outcome[] = new Array<Outcome>(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      outcomes[index] = await send(base, requests[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return outcomes;
};

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);
const redact = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k === "authorization" ? cut(v, 24) : cut(v, 80)]));

/** The exact request and reply, short enough to read: method, url, headers, body excerpt, status, body. */
const describeOutcome = ({ index, request, status, text }: Outcome) =>
  [
    `  #${index} ${request.method} ${cut(request.url, 200)}  [${request.labels.join("; ")}]`,
    `    headers ${JSON.stringify(redact(request.headers))}`,
    `    body ${request.body ? cut(JSON.stringify(request.body.toString("utf8")), 200) : "(none)"}`,
    `    → ${status ?? "no reply"} ${cut(text, 300)}`,
  ].join("\n");

/** The shape of a reply, not its echo of the request: `error` and `code` of a JSON object and its keys. */
const shapeOf = (text: string) => {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const { error, code } = body as Record<string, unknown>;
      return `${JSON.stringify({ error, code })} keys ${Object.keys(body).join(",")}`;
    }
  } catch {
    // not JSON: the text itself, cut short
  }
  return cut(text, 60);
};

/** A failure's class: what broke, the status, and the reply's shape with ids and numbers blurred. */
const classOf = ({ problems, status, text }: Outcome) => {
  const reply = shapeOf(text).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, "<id>").replace(/\d+/g, "<n>");
  return `${problems.join(" + ")} | ${status ?? "-"} | ${reply}`;
};

/** Failures grouped by class, each with the targets it hit and the shortest example per target. */
export const report = (failures: Outcome[]) => {
  const groups = new Map<string, Map<string, Outcome[]>>();
  for (const failure of failures) {
    const byTarget = groups.get(classOf(failure)) ?? new Map<string, Outcome[]>();
    byTarget.set(failure.request.target, [...(byTarget.get(failure.request.target) ?? []), failure]);
    groups.set(classOf(failure), byTarget);
  }
  const size = (o: Outcome) => o.request.url.length + (o.request.body?.length ?? 0);
  return [...groups].map(([key, byTarget]) => {
    const examples = [...byTarget].map(([target, list]) => {
      const shortest = list.reduce((a, b) => (size(b) < size(a) ? b : a));
      return `  ${target}: ${list.length} request(s), e.g.\n${describeOutcome(shortest)}`;
    });
    return `● ${key}\n${examples.join("\n")}`;
  });
};
