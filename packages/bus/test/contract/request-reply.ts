import { AppError, defineEndpoint } from "@fit/contracts";
import { expect, it } from "vitest";
import { z } from "zod";
import type { ContractContext } from "../bus-contract.ts";
import { rejection, sleep } from "../support.ts";

const endpoint = (ctx: ContractContext, name = "echo") =>
  defineEndpoint({
    subject: ctx.names.subject(name),
    service: "echoer",
    request: z.object({ text: z.string().min(1) }),
    reply: z.object({ text: z.string(), length: z.number().int() }),
  });

const appError = async (work: Promise<unknown>): Promise<AppError> => {
  const err = await rejection(work);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

export const requestReplyContract = (ctx: ContractContext): void => {
  it("parses the request for the handler and the reply for the caller, dropping unknown fields", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    let seen: unknown;
    bus.serve(def, async (req) => {
      seen = req;
      return { text: req.text.toUpperCase(), length: req.text.length, internal: "kept out" } as never;
    });
    const reply = await bus.request(def, { text: "abc", extra: 1 } as never);
    expect(seen).toEqual({ text: "abc" });
    expect(reply).toEqual({ text: "ABC", length: 3 });
  });

  it("hands requestJson the reply's JSON text as the responder validated and wrote it", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async (req) => ({ text: req.text.toUpperCase(), length: req.text.length, internal: "kept out" }) as never);
    expect(await bus.requestJson(def, { text: "abc" })).toBe('{"text":"ABC","length":3}');
  });

  it("throws from requestJson as from request: the handler's error, or internal for a reply the schema refuses", async () => {
    const bus = await ctx.harness.open([]);
    const failing = endpoint(ctx, "failing");
    bus.serve(failing, async () => {
      throw new AppError("not_found", "no such reading");
    });
    const err = await appError(bus.requestJson(failing, { text: "a" }));
    expect([err.code, err.message]).toEqual(["not_found", "no such reading"]);
    const broken = endpoint(ctx, "broken");
    bus.serve(broken, async () => ({ text: "a", length: "one" }) as never);
    expect((await appError(bus.requestJson(broken, { text: "a" }))).code).toBe("internal");
    expect((await appError(bus.requestJson(endpoint(ctx, "nobody"), { text: "a" }, { timeoutMs: 3_000 }))).code).toBe("unavailable");
  });

  it("stops answering once its responder is stopped, while another replica goes on", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    const first = bus.serve(def, async (req) => ({ text: "first", length: req.text.length }));
    bus.serve(def, async (req) => ({ text: "second", length: req.text.length }));
    await bus.ping();
    await first.stop();
    const answers = new Set<string>();
    for (let i = 0; i < 6; i++) answers.add((await bus.request(def, { text: "x" })).text);
    expect([...answers]).toEqual(["second"]);
  });

  it("finishes the answers in progress before its responder's stop resolves (a service closing on a shared bus)", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx, "slow");
    let started!: () => void;
    const inHandler = new Promise<void>((resolve) => (started = resolve));
    let answered = false;
    const responder = bus.serve(def, async (req) => {
      started();
      await sleep(200);
      answered = true;
      return { text: "done", length: req.text.length };
    });
    await bus.ping();
    const reply = bus.request(def, { text: "x" }, { timeoutMs: 5_000 });
    await inHandler;
    await responder.stop();
    expect(answered).toBe(true);
    expect(await reply).toEqual({ text: "done", length: 1 });
  });

  it("sends payloads as JSON, so a Date arrives as an ISO string", async () => {
    const bus = await ctx.harness.open([]);
    const def = defineEndpoint({
      subject: ctx.names.subject("json"),
      service: "echoer",
      request: z.object({ at: z.unknown() }),
      reply: z.object({ type: z.string() }),
    });
    bus.serve(def, async (req) => ({ type: req.at instanceof Date ? "Date" : typeof req.at }));
    expect(await bus.request(def, { at: new Date() })).toEqual({ type: "string" });
  });

  it("passes the caller's headers to the handler with lower-cased names", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    let headers: Record<string, string> = {};
    bus.serve(def, async (req, c) => {
      headers = c.headers;
      return { text: req.text, length: 1 };
    });
    await bus.request(def, { text: "a" }, { headers: { "X-Account-Id": "acc-1" } });
    expect(headers["x-account-id"]).toBe("acc-1");
  });

  it("refuses an invalid request with validation before it is sent", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    let calls = 0;
    bus.serve(def, async () => ({ text: "", length: calls++ }));
    const err = await appError(bus.request(def, { text: "" }));
    expect(err.code).toBe("validation");
    expect(calls).toBe(0);
  });

  it("answers a request its schema refuses with validation", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    let calls = 0;
    bus.serve(def, async () => ({ text: "", length: calls++ }));
    const loose = { ...def, request: z.any() };
    const err = await appError(bus.request(loose, { text: 42 }));
    expect(err.code).toBe("validation");
    expect(calls).toBe(0);
  });

  it("re-throws the handler's AppError with its code, message and detail", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async () => {
      throw new AppError("not_found", "no such reading", "id r-1\nsecond line");
    });
    const err = await appError(bus.request(def, { text: "a" }));
    expect([err.code, err.message, err.detail]).toEqual(["not_found", "no such reading", "id r-1 second line"]);
  });

  it("carries a busy responder's Retry-After with its error", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async () => {
      throw new AppError("rate_limited", "the coach is busy", undefined, 2.5);
    });
    const err = await appError(bus.request(def, { text: "a" }));
    expect([err.code, err.retryAfterS]).toEqual(["rate_limited", 3]);
  });

  it("answers an unexpected throw with a bare internal error and logs it", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async () => {
      throw new Error("password=hunter2 at db.ts:12");
    });
    const err = await appError(bus.request(def, { text: "a" }));
    expect([err.code, err.message, err.detail]).toEqual(["internal", "internal error", undefined]);
    expect(JSON.stringify(err)).not.toContain("hunter2");
    expect(ctx.log.some((e) => e.level === "error" && String((e.obj as { err?: Error }).err?.message).includes("hunter2"))).toBe(true);
  });

  it("turns a reply that breaks the reply schema into an internal error", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async () => ({ text: "a", length: "one" }) as never);
    expect((await appError(bus.request(def, { text: "a" }))).code).toBe("internal");
  });

  it("fails at once with unavailable when nobody serves the subject", async () => {
    const bus = await ctx.harness.open([]);
    const started = Date.now();
    const err = await appError(bus.request(endpoint(ctx, "nobody"), { text: "a" }, { timeoutMs: 3_000 }));
    expect(err.code).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("fails with timeout when the handler answers after timeoutMs", async () => {
    const bus = await ctx.harness.open([]);
    const def = endpoint(ctx);
    bus.serve(def, async (req) => {
      await sleep(400);
      return { text: req.text, length: 1 };
    });
    const started = Date.now();
    const err = await appError(bus.request(def, { text: "a" }, { timeoutMs: 150 }));
    expect(err.code).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(550);
  });

  it("splits requests between replicas serving the same endpoint", async () => {
    const def = endpoint(ctx);
    const counts = [0, 0];
    for (const i of [0, 1]) {
      const replica = await ctx.harness.open([]);
      replica.serve(def, async (req) => ({ text: req.text, length: ++counts[i]! }));
      await replica.ping(); // on NATS, the server has the subscription once a ping has come back
    }
    const caller = await ctx.harness.open([]);
    await Promise.all(Array.from({ length: 20 }, () => caller.request(def, { text: "a" })));
    expect(counts[0]! + counts[1]!).toBe(20);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
};
