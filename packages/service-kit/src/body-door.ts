import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "@fit/contracts";

/**
 * Bytes of request bodies one process takes in at once: six full activity files, or a thousand full JSON bodies.
 * Past it a request with a body is `503` with Retry-After before its body is read (docs/security.md#9-body-limits-and-prototype-poisoning).
 */
const IN_FLIGHT_BODY_BYTES = 64 * 1024 * 1024;
const BUSY_RETRY_AFTER_S = 2;

/**
 * A body answered before it has all arrived is read and thrown away up to this many bytes or this long, so that
 * its sender, still writing, gets to read the answer instead of a broken pipe; past either the connection is cut.
 * Above any file a person would mistake for an activity file (a 60 MB video), below the 30 s request timeout.
 */
const DRAIN_BYTES = 128 * 1024 * 1024;
const DRAIN_MS = 10_000;

/** What a streamed upload holds at once: the piece in hand (the imports service keeps 1 MiB chunks). */
const STREAMED_BODY_BYTES = 2 * 1024 * 1024;

/**
 * What a request's body may cost before it is read: its declared length, or its route's limit when it is chunked;
 * a streamed upload's at most the piece in hand.
 */
const bodyBytesOf = (request: FastifyRequest): number => {
  const limit = Math.min(request.routeOptions.bodyLimit ?? 0, request.routeOptions.config.operation?.upload?.streamed ? STREAMED_BODY_BYTES : Infinity);
  const declared = request.headers["content-length"];
  if (declared !== undefined) {
    const bytes = Number(declared);
    // A declared length over the limit is refused by the parser without reading a byte of it.
    return Number.isFinite(bytes) && bytes <= limit ? bytes : 0;
  }
  return request.headers["transfer-encoding"] === undefined ? 0 : limit;
};

const drain = (raw: IncomingMessage) => {
  let left = DRAIN_BYTES;
  const cut = () => raw.socket?.destroy();
  const timer = setTimeout(cut, DRAIN_MS);
  const stop = () => clearTimeout(timer);
  raw.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
  });
  raw.once("end", stop);
  raw.once("close", stop);
  // A body piped on (a streamed upload's counting stream, which no one reads once the answer is sent) would pause
  // the request again at that stream's high-water mark: the rest would never arrive, the cut would come after
  // DRAIN_MS, and the client, told the connection stays open, would have sent its next request on it.
  raw.unpipe();
  raw.resume();
};

/**
 * Every process's door for bodies, on every route (a plugin's own routes, /mcp and better-auth's included):
 * a budget of body bytes in flight, and an answer sent before its body arrived (413, 401, 503) that its sender can
 * read. Node would close such a connection once the answer is written (Fastify asks it to, for a 413), and the
 * client, still writing, sees EPIPE or a reset instead of the answer; here the rest of the body is drained instead
 * and the connection stays usable.
 */
export const installBodyDoor = (app: FastifyInstance, budget = IN_FLIGHT_BODY_BYTES): void => {
  let inFlight = 0;
  app.addHook("preParsing", async (request, reply, payload) => {
    const bytes = bodyBytesOf(request);
    if (bytes === 0) return payload;
    if (inFlight + bytes > budget) {
      throw new AppError("unavailable", "the server is taking in too many request bodies, retry shortly", undefined, BUSY_RETRY_AFTER_S);
    }
    inFlight += bytes;
    reply.raw.once("close", () => (inFlight -= bytes));
    return payload;
  });
  app.addHook("onSend", (request, reply, payload, done) => {
    const { raw } = request;
    // `complete` is Node's own: a request made up in-process (inject) has none and nothing to drain.
    if (raw.complete === false && !raw.destroyed) {
      reply.removeHeader("connection");
      drain(raw);
    }
    done(null, payload);
  });
};
