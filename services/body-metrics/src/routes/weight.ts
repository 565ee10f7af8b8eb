import { randomUUID } from "node:crypto";
import { ack, AppError, created, operations } from "@fit/contracts";
import { decodeCursor, serveOperation, toPage, type ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

const notFound = () => new AppError("not_found", "weight reading not found");

export const weightRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.logWeight, async ({ body, caller, record }) => {
    const id = randomUUID();
    const answer = created(id);
    await store.addReading({
      id,
      accountId: caller.accountId,
      ts: body.ts ?? Date.now(),
      weightKg: body.weightKg,
      bodyFatPct: body.bodyFatPct ?? null,
      note: body.note ?? null,
      source: "manual",
    }, record(answer));
    relay.kick();
    return answer;
  });

  serveOperation(app, operations.listWeights, async ({ query, caller }) => {
    const rows = await store.listReadings(caller.accountId, { ...query, after: decodeCursor(query.cursor) });
    return toPage(rows, query.limit, (r) => ({ at: r.ts, id: r.id }));
  });

  serveOperation(app, operations.editWeightNote, async ({ params, body, caller }) => {
    if (!(await store.setReadingNote(caller.accountId, params.id, body.note))) throw notFound();
    return ack;
  });

  serveOperation(app, operations.deleteWeight, async ({ params, caller }) => {
    if (!(await store.deleteReading(caller.accountId, params.id))) throw notFound();
    relay.kick();
    return ack;
  });
};
