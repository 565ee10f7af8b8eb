// HTTP written by hand on one socket: what fetch cannot send (a lowercase method, Expect: 100-continue with
// a body, several requests on one connection) and what must be seen as it is (a wedged connection).
import net from "node:net";

export interface RawResponse {
  status: number;
  body: unknown;
}

/** How long a connection may stay silent before the exchange is judged wedged. */
const IDLE_MS = 5_000;

const parseResponses = (text: string): RawResponse[] => {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) return responses;
    const head = rest.slice(0, headEnd);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    rest = rest.slice(headEnd + 4 + length);
    if (status === 100) continue;
    responses.push({ status, body: body ? (JSON.parse(body) as unknown) : undefined });
  }
};

/**
 * Sends the requests one after another on one connection and collects the answers until the server closes it
 * or has answered them all. A connection that goes silent with answers missing fails the exchange.
 */
export const rawExchanges = (baseUrl: string, requests: string[]): Promise<RawResponse[]> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let sent = 1;
    const finish = () => resolve(parseResponses(received));
    socket.setTimeout(IDLE_MS, () => {
      socket.destroy();
      reject(new Error(`connection wedged: ${parseResponses(received).length} of ${requests.length} answers after ${IDLE_MS} ms`));
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const answered = parseResponses(received).length;
      if (answered === requests.length) {
        socket.end();
        finish();
      } else if (answered >= sent) socket.write(requests[sent++] ?? "");
    });
    socket.on("close", finish);
    socket.on("error", () => finish());
    socket.write(requests[0] ?? "");
  });

export const rawExchange = async (baseUrl: string, request: string): Promise<RawResponse> => {
  const [response] = await rawExchanges(baseUrl, [request]);
  if (!response) throw new Error("no answer");
  return response;
};
