import { randomUUID } from "node:crypto";
import type { EventDef, EventEnvelope } from "@fit/contracts";
import type { Bus, Logger, OutboxOutcome, OutboxRow, OutboxSource } from "../src/index.ts";

export interface LogEntry {
  level: "debug" | "info" | "warn" | "error";
  obj: object;
  msg?: string;
}

/** A logger that remembers, so tests can check what was logged (and what was not sent). */
export const captureLogger = (): { logger: Logger; entries: LogEntry[] } => {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry["level"]) => (obj: object, msg?: string) => void entries.push({ level, obj, msg });
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, entries };
};

/**
 * How a contract test gets its buses. `open` gives the bus one replica uses: a new NATS connection, or the one
 * shared in-process instance. `close` closes them and removes what the test created on the server.
 */
export interface BusHarness {
  open(streams: readonly EventDef[]): Promise<Bus>;
  close(): Promise<void>;
}
export type MakeHarness = (logger: Logger) => BusHarness;

/** Unique names per test, so runs against a shared server never see each other's messages. */
export const uniqueNames = () => {
  const id = randomUUID().slice(0, 8);
  return {
    subject: (name: string) => `bustest.${id}.${name}`,
    stream: `BUSTEST_${id}`,
    bucket: (name: string) => `BUSTEST_${id}_${name}`,
    durable: (name: string) => `${name}_${id}`,
  };
};

export const envelopeFor = <T>(def: EventDef, data: T): EventEnvelope<T> => ({
  id: randomUUID(),
  type: def.subject,
  occurredAt: new Date().toISOString(),
  data,
});

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const waitFor = async (check: () => boolean, timeoutMs = 5_000, what = "condition"): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
};

/** Captures the error a promise rejects with (fails the test if it resolves). */
export const rejection = async (work: Promise<unknown>): Promise<unknown> => {
  try {
    await work;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
};

/** An in-memory OutboxSource with the contract packages/db implements: rows are marked sent only if send resolves. */
export class FakeOutbox implements OutboxSource {
  constructor(readonly leaseMs = 30_000) {}
  readonly rows: (OutboxRow & { sent: boolean; claimed: boolean })[] = [];
  claims = 0;

  add(subject: string, payload: unknown): OutboxRow {
    const row = { id: randomUUID(), subject, payload, sent: false, claimed: false };
    this.rows.push(row);
    return row;
  }

  async claim(limit: number): Promise<OutboxRow[]> {
    this.claims++;
    const batch = this.rows.filter((r) => !r.sent && !r.claimed).slice(0, limit);
    for (const r of batch) r.claimed = true;
    return batch.map(({ id, subject, payload }) => ({ id, subject, payload }));
  }

  async settle({ sent, failed, untried }: OutboxOutcome): Promise<void> {
    for (const r of this.rows) {
      if (sent.includes(r.id)) r.sent = true;
      if ([...sent, ...failed, ...untried].includes(r.id)) r.claimed = false;
    }
  }

  async pending(): Promise<number> {
    return this.rows.filter((r) => !r.sent).length;
  }
}
