import { randomUUID } from "node:crypto";
import { coachBus, operations, refuseIfTooFarAhead } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { localDay, startOfDescribedWorkout, weekdayOf } from "../domain/placement.ts";
import { describedWorkout } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";

/** Text → the coach parses it (over the bus) → placed in the client's local time → stored as a manual workout. */
export const describeRoute = ({ app, store, relay, bus }: ServiceContext<Store>, { coachTimeoutMs }: { coachTimeoutMs: number }) => {
  serveOperation(app, operations.describeWorkout, async ({ body, caller, record }) => {
    const now = Date.now();
    const date = body.date ?? localDay(now, body.tz);
    const parsed = await bus.request(
      coachBus.parseWorkout,
      { accountId: caller.accountId, text: body.text, date, weekday: weekdayOf(date) },
      { timeoutMs: coachTimeoutMs },
    );
    const startedAt = startOfDescribedWorkout({ date, tz: body.tz, now, when: parsed.when, durationS: parsed.durationS });
    refuseIfTooFarAhead(startedAt, "the described workout's start", now);
    const workout = await store.addWorkout(
      describedWorkout({ id: randomUUID(), accountId: caller.accountId }, parsed, { text: body.text, startedAt }),
      record,
    );
    relay.kick();
    return workout;
  });
};
