import type { Outcome, ResolvedSubscribeOptions } from "../event-codec.ts";
import type { Delivery, Logger } from "../types.ts";
import type { EventLog, StoredEvent } from "./event-log.ts";

/** One replica's handler, already bound to its event definition; resolves to what the delivery came to. */
export type Runner = (event: StoredEvent, deliveryCount: number, delivery: Delivery) => Promise<Outcome>;

interface Member {
  run: Runner;
  busy: Promise<void> | null;
}

interface Retry {
  event: StoredEvent;
  deliveries: number;
  dueAt: number;
}

/**
 * The in-memory stand-in for a durable JetStream consumer: a position in the stream for one subject, the events
 * waiting to be redelivered, and the replicas (members) that share them. Each event goes to one idle member
 * (round robin), one at a time per member; an event not settled within ackWaitMs is handed out again, and one
 * that failed maxDeliver times is given up, exactly as the server's consumer does.
 */
export class Durable {
  cursor = 0;
  private readonly members: Member[] = [];
  private readonly retries: Retry[] = [];
  private nextMember = 0;
  private pumpQueued = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeDueAt = 0;

  constructor(
    readonly subject: string,
    readonly name: string,
    private readonly log: EventLog,
    public opts: ResolvedSubscribeOptions,
    private readonly logger: Logger,
  ) {}

  join(run: Runner): () => Promise<void> {
    const member: Member = { run, busy: null };
    this.members.push(member);
    this.schedule();
    return async () => {
      this.members.splice(this.members.indexOf(member), 1);
      await member.busy;
    };
  }

  /** Delivery is always asynchronous, so publishing never runs a handler on the publisher's stack. */
  schedule(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /** Events on the subject not handed out yet, as JetStream's num_pending counts them. */
  pending(): number {
    return this.log.count(this.cursor, this.subject);
  }

  stopTimers(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
  }

  /** One timer for the earliest waiting retry. Timers may fire a little early, so pump re-arms it if needed. */
  private wakeAt(dueAt: number): void {
    if (this.wakeTimer && this.wakeDueAt <= dueAt) return;
    this.stopTimers();
    this.wakeDueAt = dueAt;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.schedule();
    }, Math.max(1, dueAt - Date.now()));
  }

  private pump(): void {
    for (let member = this.idleMember(); member; member = this.idleMember()) {
      const job = this.takeDue() ?? this.takeNew();
      if (!job) break;
      this.start(member, job.event, job.deliveries + 1);
    }
    // A future retry needs the timer. So does one that became due just now while a member is idle (the clock
    // ticked past it between takeDue() and here); a due one waiting for a busy member is pumped when it finishes.
    const next = Math.min(...this.retries.map((r) => r.dueAt));
    const idle = this.members.some((m) => !m.busy);
    if (next !== Infinity && this.members.length > 0 && (next > Date.now() || idle)) this.wakeAt(next);
  }

  private idleMember(): Member | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const m = this.members[(this.nextMember + i) % this.members.length];
      if (m && !m.busy) {
        this.nextMember = (this.nextMember + i + 1) % this.members.length;
        return m;
      }
    }
    return undefined;
  }

  private takeDue(): Retry | undefined {
    const now = Date.now();
    const i = this.retries.findIndex((r) => r.dueAt <= now);
    return i < 0 ? undefined : this.retries.splice(i, 1)[0];
  }

  private takeNew(): Retry | undefined {
    const event = this.log.next(this.cursor, this.subject);
    if (!event) return undefined;
    this.cursor = event.seq + 1;
    return { event, deliveries: 0, dueAt: 0 };
  }

  private start(member: Member, event: StoredEvent, deliveries: number): void {
    let expired = false;
    const expire = () => {
      expired = true;
      this.retryOrGiveUp(event, deliveries, 0, "not acknowledged within ack wait");
    };
    let ackTimer = setTimeout(expire, this.opts.ackWaitMs);
    const working = () => {
      if (expired) return;
      clearTimeout(ackTimer);
      ackTimer = setTimeout(expire, this.opts.ackWaitMs);
    };
    member.busy = member
      .run(event, deliveries, { working })
      .then((outcome) => {
        clearTimeout(ackTimer);
        // Past ack wait the event is already out again, as on the server; this late outcome changes nothing.
        if (!expired && outcome.kind === "retry") this.retryOrGiveUp(event, deliveries, outcome.delayMs);
      })
      .catch((err: unknown) => this.logger.error({ err, subject: this.subject, durable: this.name }, "in-process delivery failed"))
      .finally(() => {
        member.busy = null;
        this.schedule();
      });
  }

  private retryOrGiveUp(event: StoredEvent, deliveries: number, delayMs: number, reason?: string): void {
    if (deliveries >= this.opts.maxDeliver) {
      this.logger.error({ subject: this.subject, durable: this.name, deliveries }, "event given up after max deliveries");
      return;
    }
    if (reason) this.logger.warn({ subject: this.subject, durable: this.name, deliveries }, reason);
    this.retries.push({ event, deliveries, dueAt: Date.now() + delayMs });
    this.schedule();
  }
}
