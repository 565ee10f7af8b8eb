import type { WireMessage } from "../reply-codec.ts";

export type Responder = (msg: WireMessage) => Promise<WireMessage>;

/** Who answers which subject in memory; requests go round robin, as a NATS queue group spreads them over replicas. */
export class Responders {
  private readonly bySubject = new Map<string, { list: Responder[]; next: number }>();

  /** Returns the function that takes this responder away again. */
  add(subject: string, responder: Responder): () => void {
    const entry = this.bySubject.get(subject) ?? { list: [], next: -1 };
    entry.list.push(responder);
    this.bySubject.set(subject, entry);
    return () => {
      entry.list = entry.list.filter((r) => r !== responder);
    };
  }

  pick(subject: string): Responder | undefined {
    const entry = this.bySubject.get(subject);
    if (!entry || entry.list.length === 0) return undefined;
    entry.next = (entry.next + 1) % entry.list.length;
    return entry.list[entry.next];
  }

  clear(): void {
    this.bySubject.clear();
  }
}
