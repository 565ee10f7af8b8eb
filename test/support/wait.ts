// Bounded waits that say what they were waiting for: a fault test that hangs should fail naming the step that
// never happened, not with the runner's bare test timeout.
import { setTimeout as delay } from "node:timers/promises";

/** Polls `probe` until it returns a value other than undefined; a probe that throws is retried, its error kept for the message. */
export const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000, everyMs = 100): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
    await delay(everyMs);
  }
};

/** `promise`, or an error naming `what` after `timeoutMs`. */
export const within = async <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
