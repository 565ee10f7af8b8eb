// Revocations carried to every gateway replica's credential cache (docs/decisions/0027-credential-cache.md).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Bus, Logger } from "@fit/bus";
import type { CredentialCache, Invalidation } from "./credential-cache.ts";

/** In the gateway's own subjects; the bus's namespace prefixes it like any other. */
const REVOCATIONS_SUBJECT = "gateway.credentials.revoked";
/**
 * How long a revocation waits for its own broadcast to come back before it answers anyway. 1 s was passed on a busy
 * 2-core machine, and a sign-out then answered before another replica had the invalidation in hand.
 */
const ECHO_TIMEOUT_MS = 5_000;

const Message = z.union([
  z.object({ id: z.string(), credentialId: z.string() }),
  z.object({ id: z.string(), accountId: z.string() }),
]);

const parseJson = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

export interface Revocations {
  /**
   * Called after a revocation is stored, before it is answered: drops it from this cache, and from every other
   * replica's, waiting (up to a second) until NATS has handed the broadcast to every listener.
   */
  revoked(this: void, what: Invalidation): Promise<void>;
}

/**
 * Listens for other replicas' revocations and tells the cache whether it may trust itself (only while the
 * subscription is confirmed and the connection up). The revoking replica waits for its own copy: NATS hands a
 * message to every subscriber of the subject before that copy, so the revocation is answered only once every
 * live replica's connection has the invalidation in hand.
 */
export async function startRevocations({ bus, cache, logger }: { bus: Bus; cache: CredentialCache; logger: Logger }) {
  const echoes = new Map<string, () => void>();
  let live = false;
  const listening = await bus.listen(
    REVOCATIONS_SUBJECT,
    (data) => {
      const message = Message.safeParse(parseJson(data));
      if (!message.success) {
        // Something was revoked, but what cannot be read: forget everything rather than guess.
        logger.warn({ data }, "unreadable credential revocation: credential cache emptied");
        return cache.clear();
      }
      const { id, ...what } = message.data;
      cache.invalidate(what);
      echoes.get(id)?.();
    },
    (up) => {
      if (up && !live) logger.info({}, "credential cache in use: revocations are heard");
      if (!up && live) logger.warn({}, "credential cache off: revocations may be missed while NATS is unreachable");
      live = up;
      cache.setTrusted(up);
    },
  );

  const revocations: Revocations = {
    async revoked(what) {
      cache.invalidate(what);
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const echoed = new Promise<void>((resolve, reject) => {
        echoes.set(id, resolve);
        timer = setTimeout(() => reject(new Error(`no echo within ${ECHO_TIMEOUT_MS} ms`)), ECHO_TIMEOUT_MS);
      });
      echoed.catch(() => undefined);
      try {
        await bus.broadcast(REVOCATIONS_SUBJECT, JSON.stringify({ id, ...what }));
        // Not listening (NATS down): no echo will come; other replicas get the broadcast when the client reconnects.
        if (live) await echoed;
      } catch (err) {
        logger.warn({ err }, "credential revocation not confirmed on the bus: other gateway replicas may accept the credential until their cache entry ages out");
      } finally {
        clearTimeout(timer);
        echoes.delete(id);
      }
    },
  };
  return { revocations, stop: () => listening.stop() };
}
