import { randomUUID } from "node:crypto";
import { ack, AppError, created, operations } from "@fit/contracts";
import { decodeCursor, serveOperation, toPage, type ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

export const measurementRoutes = ({ app, store }: ServiceContext<Store>) => {
  serveOperation(app, operations.logMeasurement, async ({ body, caller, record }) => {
    const id = randomUUID();
    const answer = created(id);
    await store.addMeasurement({ id, accountId: caller.accountId, site: body.site, valueCm: body.valueCm, ts: body.ts ?? Date.now() }, record(answer));
    return answer;
  });

  serveOperation(app, operations.listMeasurements, async ({ query, caller }) => {
    const rows = await store.listMeasurements(caller.accountId, query.site, { ...query, after: decodeCursor(query.cursor) });
    return toPage(rows, query.limit, (m) => ({ at: m.ts, id: m.id }));
  });

  serveOperation(app, operations.deleteMeasurement, async ({ params, caller }) => {
    if (!(await store.deleteMeasurement(caller.accountId, params.id))) {
      throw new AppError("not_found", "measurement not found");
    }
    return ack;
  });
};
