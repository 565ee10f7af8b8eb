// Every request example in the README is run against the platform and its documented answer compared, so the
// README cannot drift from what the server says. An example is a fenced block whose info string is
// `sh example` holding one curl command, followed by a `json answer [status]` block; `"…"` in an answer stands
// for any value (ids, times). Examples run in the README's order, as one new account.
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { parse } from "shell-quote";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type System } from "./support/system.ts";

const README_BASE = "http://127.0.0.1:3000";
const ANY = "…";
/** How long an example that only reads may take to reflect the events of the examples before it. */
const SETTLE_MS = 5_000;

interface Block {
  info: string;
  text: string;
  line: number;
}

interface Example {
  curl: string;
  answer: unknown;
  status: number;
  line: number;
}

const blocksOf = (markdown: string): Block[] =>
  [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    info: match[1]!.trim(),
    text: match[2]!,
    line: markdown.slice(0, match.index).split("\n").length,
  }));

const examplesOf = (blocks: Block[]): Example[] =>
  blocks.flatMap((block, index) => {
    if (!/\bexample\b/.test(block.info)) return [];
    const answer = blocks[index + 1];
    const match = answer && /^json answer(?: (\d{3}))?$/.exec(answer.info);
    if (!answer || !match) throw new Error(`README line ${block.line}: an example must be followed by a \`json answer\` block`);
    return [{ curl: block.text, answer: JSON.parse(answer.text), status: Number(match[1] ?? 200), line: block.line }];
  });

/** The request a curl command line makes: the flags the README uses, nothing else (an unknown one fails). */
const requestOf = (curl: string, env: Record<string, string>, base: string) => {
  const words = parse(curl.replace(/\\\n/g, " "), env);
  if (words[0] !== "curl" || words.some((word) => typeof word !== "string")) throw new Error(`not one plain curl command: ${curl}`);
  const args = (words as string[]).slice(1);
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-s" || arg === "--silent") continue;
    const value = args[++i];
    if (arg === "-X" || arg === "--request") method = value;
    else if (arg === "-H" || arg === "--header") {
      const [name, ...rest] = value!.split(":");
      headers[name!.trim().toLowerCase()] = rest.join(":").trim();
    } else if (arg === "-d" || arg === "--data") body = value;
    else if (!arg.startsWith("-") && url === undefined) {
      url = arg;
      i--;
    } else throw new Error(`curl option ${arg} is not understood by this test`);
  }
  if (!url?.startsWith(README_BASE)) throw new Error(`the example's URL must start with ${README_BASE}: ${curl}`);
  return { url: base + url.slice(README_BASE.length), method: method ?? (body === undefined ? "GET" : "POST"), headers, body };
};

/** A read, or a question to the coach: asking again changes nothing the examples after it read. */
const changesNothing = (request: { url: string; method: string }) => request.method === "GET" || new URL(request.url).pathname === "/api/agent";

/** The actual answer with `…` wherever the documented one has it, so toEqual compares everything else. */
const masked = (documented: unknown, actual: unknown): unknown => {
  if (documented === ANY && actual !== undefined) return ANY;
  if (Array.isArray(documented) && Array.isArray(actual)) return actual.map((item, i) => masked(documented[i], item));
  if (documented && actual && typeof documented === "object" && typeof actual === "object" && !Array.isArray(actual)) {
    return Object.fromEntries(Object.entries(actual).map(([key, value]) => [key, masked((documented as Record<string, unknown>)[key], value)]));
  }
  return actual;
};

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const blocks = blocksOf(readme);
const examples = examplesOf(blocks);

let system: System;
let key: string;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
  key = (await system.account()).key;
});
afterAll(() => system?.stop());

describe("README", () => {
  it("has request examples, and every curl in it is one (so none goes untested)", () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    const untested = blocks.filter((block) => /^\s*curl /m.test(block.text) && !/\bexample\b/.test(block.info));
    expect(untested.map((block) => `line ${block.line}`)).toEqual([]);
  });

  it.each(examples.map((example) => [example.line, example] as const))("the example at line %d answers as documented", async (_, example) => {
    const request = requestOf(example.curl, { FIT_API_KEY: key }, system.url);
    const documented = { status: example.status, answer: example.answer };
    const ask = async () => {
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
      return { status: response.status, answer: masked(example.answer, await response.json()) };
    };
    let actual = await ask();
    // What the insights and the coach answer is derived from the earlier examples' events, a moment after their
    // writes: a request that changes nothing is asked again, for a few seconds, until it answers as documented.
    const deadline = Date.now() + SETTLE_MS;
    while (changesNothing(request) && !isDeepStrictEqual(actual, documented) && Date.now() < deadline) {
      await delay(100);
      actual = await ask();
    }
    expect(actual).toEqual(documented);
  });
});
