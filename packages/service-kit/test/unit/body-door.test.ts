// The body budget of a process, over real HTTP: bodies in flight past it are refused before they are read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify from "fastify";
import { installErrorHandling } from "../../src/http-errors.ts";
import { installBodyDoor } from "../../src/body-door.ts";

const BUDGET = 1024 * 1024;
const app = Fastify();
let release: () => void = () => {};
let held = Promise.resolve();
let url = "";

beforeAll(async () => {
  installErrorHandling(app);
  installBodyDoor(app, BUDGET);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BUDGET }, (_request, body, done) => done(null, body));
  // Holds every body it took until the test lets go, so that they are all in flight at once.
  app.post("/upload", { bodyLimit: BUDGET }, async (request) => {
    await held;
    return { bytes: (request.body as Buffer).length };
  });
  url = await app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => app.close());

const upload = (bytes: number, chunked = false) =>
  fetch(`${url}/upload`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: chunked ? new Blob([Buffer.alloc(bytes)]).stream() : Buffer.alloc(bytes),
    ...(chunked ? { duplex: "half" } : {}),
  });

describe("the body budget", () => {
  it("refuses with 503 and Retry-After a body past the bytes in flight, and takes bodies again once they are answered", async () => {
    held = new Promise((resolve) => (release = resolve));
    const first = upload(600 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await upload(600 * 1024);
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("2");
    expect(await second.json()).toEqual({ error: "the server is taking in too many request bodies, retry shortly" });
    // A chunked body may grow to its route's limit, so it counts as that much.
    expect((await upload(10, true)).status).toBe(503);
    release();
    expect(await (await first).json()).toEqual({ bytes: 600 * 1024 });
    expect(await (await upload(600 * 1024)).json()).toEqual({ bytes: 600 * 1024 });
  });
});
