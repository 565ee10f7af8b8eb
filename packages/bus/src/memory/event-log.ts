import { DUPLICATE_WINDOW_MS } from "../event-codec.ts";

export interface StoredEvent {
  seq: number;
  subject: string;
  data: string;
  headers: Record<string, string>;
}

/** Beyond this many kept events per stream, events every durable has passed are forgotten. */
const KEEP = 10_000;

/**
 * The in-memory stand-in for a JetStream stream: an append-only log addressed by sequence number, which each
 * durable reads from its own position for its one subject, plus the stream's de-duplication window of ids.
 */
export class EventLog {
  private base = 1;
  private entries: StoredEvent[] = [];
  private readonly seen = new Map<string, number>();

  /** Appends unless `id` was stored within the duplicate window; returns whether it was stored. */
  append(id: string, subject: string, data: string, headers: Record<string, string>, now = Date.now()): boolean {
    for (const [seenId, expires] of this.seen) {
      if (expires > now) break; // insertion order is expiry order
      this.seen.delete(seenId);
    }
    if (this.seen.has(id)) return false;
    this.seen.set(id, now + DUPLICATE_WINDOW_MS);
    this.entries.push({ seq: this.base + this.entries.length, subject, data, headers });
    return true;
  }

  /** The first event on `subject` at or after `seq`, or undefined when there is none yet. */
  next(seq: number, subject: string): StoredEvent | undefined {
    for (let i = Math.max(0, seq - this.base); i < this.entries.length; i++) {
      const e = this.entries[i];
      if (e?.subject === subject) return e;
    }
    return undefined;
  }

  /** How many events on `subject` are at or after `seq`. */
  count(seq: number, subject: string): number {
    let n = 0;
    for (let i = Math.max(0, seq - this.base); i < this.entries.length; i++) if (this.entries[i]?.subject === subject) n++;
    return n;
  }

  /** Forgets the oldest events once the log is long, but never one a durable has not reached yet. */
  trim(lowestCursor: number): void {
    const excess = Math.min(this.entries.length - KEEP, lowestCursor - this.base);
    if (excess <= 0) return;
    this.entries.splice(0, excess);
    this.base += excess;
  }
}
