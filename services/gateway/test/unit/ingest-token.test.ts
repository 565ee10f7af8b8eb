import type * as Crypto from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";

// The one mock here: timingSafeEqual is watched (and still does the comparing) to prove every comparison goes
// through it, over equal-length digests, whatever the length of what was sent.
const compared = vi.hoisted(() => [] as [number, number][]);
vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof Crypto>();
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([a.byteLength, b.byteLength]);
      return crypto.timingSafeEqual(a, b);
    },
  };
});
const { ingestTokenMatcher } = await import("../../src/auth/ingest-token.ts");

const TOKEN = "scale-token-0123456789-abcdefghijklmnop";

describe("the ingest token", () => {
  beforeEach(() => {
    compared.length = 0;
  });

  it("matches the exact bearer token only", () => {
    const matches = ingestTokenMatcher(TOKEN)!;
    expect(matches(`Bearer ${TOKEN}`)).toBe(true);
    expect(matches(`bearer ${TOKEN}`)).toBe(true);
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN.toUpperCase()}`, TOKEN, `Basic ${TOKEN}`, "Bearer", undefined]) {
      expect(matches(header), header).toBe(false);
    }
  });

  it("compares SHA-256 digests in constant time, whatever the length sent", () => {
    const matches = ingestTokenMatcher(TOKEN)!;
    for (const sent of ["x", TOKEN, "y".repeat(5000)]) matches(`Bearer ${sent}`);
    expect(compared).toEqual([[32, 32], [32, 32], [32, 32]]);
  });

  it("is null when no token is configured", () => {
    expect(ingestTokenMatcher(undefined)).toBeNull();
  });
});
