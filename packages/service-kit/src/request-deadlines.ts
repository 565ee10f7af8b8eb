import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { replyToClientError } from "./http-errors.ts";

export interface RequestDeadlines {
  /** How long a request's body may take to arrive whole, from its headers. */
  requestMs: number;
  /** A streamed upload (`upload.streamed`) instead: how long it may go without a byte while the server waits for one. */
  uploadIdleMs: number;
}

/** Time for the 408 to leave before a connection whose client keeps sending is cut. */
const ANSWER_GRACE_MS = 1_000;

const hasBody = (raw: IncomingMessage) => raw.headers["transfer-encoding"] !== undefined || Number(raw.headers["content-length"] ?? 0) > 0;

/** Answers 408 in the envelope, as Node does for its own request timeout, then ends the connection. */
const cutOff = (socket: Socket) => {
  replyToClientError(Object.assign(new Error("request took too long to arrive"), { code: "ERR_HTTP_REQUEST_TIMEOUT" }), socket);
  setTimeout(() => socket.destroy(), ANSWER_GRACE_MS).unref();
};

/**
 * Calls `onIdle` once the socket has brought no byte for `idleMs` while the request had nothing left unread: a
 * body the server is slow to take (its buffer full, the socket paused) is the server's wait, not the client's.
 */
const watchIdle = (raw: IncomingMessage, idleMs: number, onIdle: () => void) => {
  const socket = raw.socket;
  let seen = socket.bytesRead;
  let quietSince = Date.now();
  const timer = setInterval(() => {
    if (socket.bytesRead !== seen || raw.readableLength > 0) {
      seen = socket.bytesRead;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= idleMs) onIdle();
  }, Math.max(50, Math.min(1_000, idleMs / 4)));
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Every process's deadlines for a request's body (docs/security.md#9-body-limits-and-prototype-poisoning): a body
 * must arrive whole within `requestMs`, so a client dripping it slowly cannot hold a connection; a streamed
 * upload, which may rightly take as long as a gigabyte takes on the caller's line, is cut only when it stalls
 * for `uploadIdleMs`. Node's own `requestTimeout` is one deadline per server for every request, so it is off and
 * these take its place; its `headersTimeout` still bounds the headers.
 */
export const installRequestDeadlines = (app: FastifyInstance, { requestMs, uploadIdleMs }: RequestDeadlines): void => {
  app.addHook("onRequest", (request, reply, done) => {
    const { raw } = request;
    if (!hasBody(raw) || raw.complete) return done();
    // A request answered before its body arrived is the body door's to drain and bound.
    const cut = () => {
      stop();
      if (!raw.complete && !raw.destroyed && !reply.raw.headersSent) cutOff(raw.socket);
    };
    const stop = request.routeOptions.config.operation?.upload?.streamed
      ? watchIdle(raw, uploadIdleMs, cut)
      : ((timer) => () => clearTimeout(timer))(setTimeout(cut, requestMs).unref());
    raw.once("end", stop);
    reply.raw.once("close", stop);
    done();
  });
};
