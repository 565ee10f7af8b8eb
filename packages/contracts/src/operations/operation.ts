import type { z } from "zod";
import type { Scope } from "../scopes.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One HTTP operation: where it lives, who may call it, what it takes and returns. Services build their routes
 * from these, the gateway checks scopes and forwards with them, and /openapi.json is generated from them.
 */
export interface Operation {
  readonly id: string;
  readonly method: Method;
  /** Fastify-style path (`/api/weight/:id`). */
  readonly path: string;
  /** The service that serves it; the gateway forwards the path's prefix there. */
  readonly service: "gateway" | "body-metrics" | "nutrition" | "workouts" | "insights" | "imports";
  readonly tag: string;
  readonly scope: Scope;
  readonly summary: string;
  readonly description?: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly params?: z.ZodObject;
  readonly response: z.ZodType;
  /** The success status, when it is not 200 (202: accepted, finished later). */
  readonly status?: 202;
  /** The response is a download (`Content-Disposition: attachment`) under this file name. */
  readonly attachment?: string;
  /** HTTP statuses of the error envelope this operation documents beyond the common ones. */
  readonly errors: readonly number[];
  /**
   * Which credential may call it, when not the default (a session cookie, an API key or an agent token holding
   * `scope`): `session` only a signed-in session (403 for any other credential), `ingest-token` only the shared
   * scale-ingest token (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md,
   * docs/decisions/0021-scale-ingest-token.md).
   */
  readonly credential?: "session" | "ingest-token";
  /**
   * Creates something, and takes an `Idempotency-Key` header: a retry with the same key and request gets the
   * first answer again instead of writing twice (docs/decisions/0062-idempotency-keys.md).
   */
  readonly idempotencyKey?: true;
  /**
   * A route that also takes a file: these media types arrive as raw bytes, up to `limitBytes` (not 64 KiB).
   * `streamed`: the file is read as it arrives and never held whole, so it costs a process's budget of request
   * bodies in flight only the piece in hand, not `limitBytes` (docs/decisions/0076-imports-as-background-jobs.md).
   */
  readonly upload?: { readonly limitBytes: number; readonly mediaTypes: readonly string[]; readonly streamed?: true };
}

/** A language-model call can fail upstream (502), time out (504), or find the coach busy or the quota spent (429). */
export const modelErrors = [400, 413, 415, 429, 502, 503, 504];
export const ACTIVITY_FILE_LIMIT = 10 * 1024 * 1024;

export const define = <const O extends Operation>(op: O): O => op;

