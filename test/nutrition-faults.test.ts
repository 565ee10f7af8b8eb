import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { deleteItem, editItem, expectReadYourWrites, expectSettled, logItem, newAccount, type Account } from "./support/nutrition-accounts.ts";
import { startNutritionRig } from "./support/nutrition-rig.ts";
import { waitFor, within } from "./support/wait.ts";

/*
 * The nutrition service as a process of its own, crashed (SIGKILL), cut off from NATS and handed duplicate
 * events, to show that it loses no acknowledged write and applies every event once (docs/security.md, "a killed
 * service loses no acknowledged write", "the nutrition service survives PostgreSQL and NATS outages" and "Every
 * acknowledged event is applied once"). Each test breaks a rig of its own (database, nats-server, process).
 */

const DAYS = ["2026-05-01", "2026-05-02", "2026-05-03"] as const;
const ids = (...accounts: Account[]) => accounts.map((a) => a.accountId);

describe("the nutrition service under faults", () => {
  // What is provoked exactly: seven writes commit (item, pending day, outbox row) while NATS is down, the relay
  // tries and fails to publish them (at least one failed attempt is awaited), and the process is killed with
  // SIGKILL while every event is committed and unpublished (a claim transaction open at the kill is rolled back).
  it("loses no write when it crashes between commit and publish (NATS down, kill -9, restarts)", async () => {
    const rig = await startNutritionRig();
    const alice = newAccount(rig);
    const bob = newAccount(rig);
    await rig.nats.stop();

    // Every write commits with its outbox row while the relay cannot publish; reads still show the new sums.
    const a1 = await logItem(alice, DAYS[0], 500, 30);
    await expectReadYourWrites(alice, bob);
    const b1 = await logItem(bob, DAYS[0], 700, 12.5);
    await expectReadYourWrites(alice, bob);
    const a2 = await logItem(alice, DAYS[1], 250, 10);
    await expectReadYourWrites(alice, bob);
    await editItem(alice, a2, { date: DAYS[0], kcal: 300 }); // moves a2: both days change
    await expectReadYourWrites(alice, bob);
    await logItem(bob, DAYS[1], 111, 1.5);
    await expectReadYourWrites(alice, bob);
    await deleteItem(bob, b1);
    await expectReadYourWrites(alice, bob);
    await editItem(alice, a1, { proteinG: 31.5 });
    await expectReadYourWrites(alice, bob);
    // Let the relay try and fail (its publish times out after 5 s): a failed publish must leave its rows unsent.
    await waitFor("a failed publish attempt", async () => ((await rig.db.failedPublishes(ids(alice, bob))) > 0 ? true : undefined), 15_000, 200);
    expect(await rig.db.unsentOutboxRows(ids(alice, bob)), "all 7 events are still only in the outbox").toBe(7);

    await rig.killNutrition();
    await rig.nats.start();
    await rig.startNutrition();
    await expectSettled(rig, alice, bob);
  });

  // What is provoked exactly: nats-server is killed with SIGKILL while the service is connected (relay and durable
  // consumers), and stays down for ~2.5 s of writes; the relay's publishes fail or wait, the outbox fills, then the
  // server restarts on its store and the service reconnects by itself. Not provoked: the loss of JetStream data
  // not yet synced to disk on a power failure (a killed process leaves what it wrote in the OS page cache).
  it("delays but loses no event when NATS crashes (kill -9) and stays down for seconds while writes go on", async () => {
    const rig = await startNutritionRig();
    const alice = newAccount(rig);
    const bob = newAccount(rig);
    const written = new Map<Account, string[]>([[alice, []], [bob, []]]);
    let stuckDuringOutage = 0;
    for (let i = 0; i < 24; i++) {
      if (i === 8) await rig.nats.stop("SIGKILL");
      if (i === 16) {
        stuckDuringOutage = await rig.db.unsentOutboxRows(ids(alice, bob));
        await rig.nats.start();
      }
      const account = i % 2 === 0 ? alice : bob;
      const mine = written.get(account) ?? [];
      const step = Math.floor(i / 2) % 4;
      const earlier = mine.find((id) => account.model.has(id));
      if (step === 2 && earlier) await editItem(account, earlier, { date: DAYS[(i + 1) % 3], kcal: 10 * i });
      else if (step === 3 && earlier) await deleteItem(account, earlier);
      else mine.push(await logItem(account, DAYS[i % 3] as string, 100 + i, i / 2));
      await expectReadYourWrites(alice, bob);
      // Paces the writes, so the outage spans seconds of them rather than one burst.
      await delay(300);
    }
    expect(stuckDuringOutage, "the relay could not publish during the outage").toBeGreaterThan(0);
    await expectSettled(rig, alice, bob);
  });

  // What is provoked exactly: the proxy lets the recompute transaction's COMMIT reach PostgreSQL and withholds the
  // answer, so the projection's change is committed while the process never learns it and never acks; the process
  // is then killed with SIGKILL. Not provoked: a crash in the instants between a successful commit answer and the
  // ack (same outcome for the server: an unacknowledged delivery), and a crash of NATS itself.
  it("applies a redelivered event without change after kill -9 between the consumer's commit and its ack", async () => {
    const rig = await startNutritionRig();
    const alice = newAccount(rig);
    await logItem(alice, DAYS[0], 400, 20);
    await expectSettled(rig, alice);

    const trap = rig.proxy.trapNextRecompute("after-commit");
    await logItem(alice, DAYS[0], 150, 7.5);
    await within(trap, 10_000, "the recompute's commit to be trapped");
    await rig.killNutrition();

    // Exactly the state asked for: the total is committed and the day no longer pending, the event unacknowledged.
    const committed = await rig.db.storedDay(alice.accountId, DAYS[0]);
    expect(committed).toMatchObject({ kcal: 550, proteinG: 27.5, itemCount: 2 });
    expect(await rig.db.isPending(alice.accountId, DAYS[0])).toBe(false);
    const held = await rig.consumer("nutrition-rollup-logged");
    expect(held.num_ack_pending).toBe(1);

    await rig.startNutrition({ ackWaitMs: 1_000 });
    // The redelivery was handled (delivered again, acked) and changed nothing: the day is no longer pending on it,
    // so its total is not even rewritten (docs/decisions/0005-recompute-not-increment.md).
    await waitFor("the unacknowledged event to be redelivered and acked", async () => {
      const state = await rig.consumer("nutrition-rollup-logged");
      return state.num_ack_pending === 0 && state.delivered.consumer_seq > held.delivered.consumer_seq ? state : undefined;
    });
    const after = await rig.db.storedDay(alice.accountId, DAYS[0]);
    expect(after?.updatedAt.getTime(), "the duplicate left the stored total as it was").toBe(committed?.updatedAt.getTime());
    expect(after).toMatchObject({ kcal: 550, proteinG: 27.5, itemCount: 2 });
    await expectSettled(rig, alice);
  });

  // What is provoked exactly: the recompute transaction has run all its statements, its COMMIT never reaches
  // PostgreSQL, and the process is killed with SIGKILL, so PostgreSQL rolls it back and the event stays unacked.
  it("applies the redelivered event after kill -9 of the consumer before its commit", async () => {
    const rig = await startNutritionRig();
    const bob = newAccount(rig);
    await logItem(bob, DAYS[1], 300, 15);
    await expectSettled(rig, bob);
    const before = await rig.db.storedDay(bob.accountId, DAYS[1]);

    const trap = rig.proxy.trapNextRecompute("before-commit");
    await logItem(bob, DAYS[1], 80, 4);
    await within(trap, 10_000, "the recompute's commit to be trapped");
    await rig.killNutrition();

    // Rolled back: the stored total is the old one and the day still pending; reads would recompute it.
    await waitFor("the killed process's sessions to end", async () => ((await rig.db.serviceSessions()) === 0 ? true : undefined));
    expect(await rig.db.storedDay(bob.accountId, DAYS[1])).toEqual(before);
    expect(await rig.db.isPending(bob.accountId, DAYS[1])).toBe(true);
    expect((await rig.consumer("nutrition-rollup-logged")).num_ack_pending).toBe(1);

    await rig.startNutrition({ ackWaitMs: 1_000 });
    await expectSettled(rig, bob);
  });

  // Approximate, not exact: the process is killed right after a burst of writes, at whatever point each event has
  // reached (in the outbox only, published but not marked sent, delivered but not applied, applied but not acked).
  // The annotation records which of these states the kill left behind in this run.
  it("loses nothing and double-counts nothing when killed with events in flight", async ({ annotate }) => {
    const rig = await startNutritionRig();
    const alice = newAccount(rig);
    const bob = newAccount(rig);
    await Promise.all(Array.from({ length: 16 }, (_, i) => logItem(i % 2 === 0 ? alice : bob, DAYS[i % 3] as string, 50 + i, 1 + i / 2)));
    await rig.killNutrition();

    const states = await rig.consumers();
    await annotate(
      `at the kill: ${await rig.db.unsentOutboxRows(ids(alice, bob))} outbox rows unsent, ${await rig.db.pendingDays(ids(alice, bob))} days pending, ` +
        `${states.reduce((n, s) => n + s.num_ack_pending, 0)} deliveries unacked, ${states.reduce((n, s) => n + s.num_pending, 0)} not yet delivered`,
    );
    await rig.startNutrition({ ackWaitMs: 1_000 });
    await expectSettled(rig, alice, bob);
    await waitFor("every delivery to be acked", async () =>
      (await rig.consumers()).every((s) => s.num_ack_pending === 0 && s.num_pending === 0) ? true : undefined,
    );
    await expectSettled(rig, alice, bob);
  });

  it("leaves totals unchanged when the same event is delivered again under another Nats-Msg-Id", async () => {
    const rig = await startNutritionRig();
    const alice = newAccount(rig);
    const bob = newAccount(rig);
    const kept = await logItem(alice, DAYS[0], 420, 21);
    const gone = await logItem(alice, DAYS[2], 99, 9);
    await deleteItem(alice, gone);
    await logItem(bob, DAYS[0], 10, 0.5);
    await expectSettled(rig, alice, bob);

    const keptEvent = await rig.db.loggedEvent(kept);
    const goneEvent = await rig.db.loggedEvent(gone);
    if (!keptEvent || !goneEvent) throw new Error("the logged events are not in the outbox");
    const before = await rig.db.storedDay(alice.accountId, DAYS[0]);
    const republish = (event: { id: string }, msgID: string) => rig.publish("nutrition.item.logged", event, msgID);

    // Within its duplicate window the stream drops a second copy under the same Nats-Msg-Id...
    expect((await republish(keptEvent, keptEvent.id)).duplicate).toBe(true);
    // ...so duplicates that reach the consumer carry another message id: the same envelope twice, and a late copy
    // of the event of an item deleted since (a reordered delivery).
    const copies = [await republish(keptEvent, randomUUID()), await republish(keptEvent, randomUUID()), await republish(goneEvent, randomUUID())];
    expect(copies.map((c) => c.duplicate)).toEqual([false, false, false]);
    const last = Math.max(...copies.map((c) => c.seq));
    await waitFor("the copies to be handled and acked", async () => {
      const state = await rig.consumer("nutrition-rollup-logged");
      return state.ack_floor.stream_seq >= last && state.num_ack_pending === 0 ? true : undefined;
    });

    const after = await rig.db.storedDay(alice.accountId, DAYS[0]);
    // Handled and acknowledged (above) without touching the total: no copy's day is pending on it.
    expect(after?.updatedAt.getTime(), "the copies left the stored total as it was").toBe(before?.updatedAt.getTime());
    expect(after).toMatchObject({ kcal: 420, proteinG: 21, itemCount: 1 });
    expect(await rig.db.storedDay(alice.accountId, DAYS[2]), "no total comes back for the deleted item's day").toBeUndefined();
    await expectSettled(rig, alice, bob);
  });
});
