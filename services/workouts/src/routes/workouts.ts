import { randomUUID } from "node:crypto";
import { ack, AppError, operations } from "@fit/contracts";
import { decodeCursor, serveOperation, toPage, type ServiceContext } from "@fit/service-kit";
import { createdWorkout, workoutChanges } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";

const notFound = () => new AppError("not_found", "workout not found");

export const workoutRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.listWorkouts, async ({ query, caller }) => {
    const rows = await store.listWorkouts(caller.accountId, { ...query, after: decodeCursor(query.cursor) });
    return toPage(rows, query.limit, (w) => ({ at: w.startedAt, id: w.id }));
  });

  serveOperation(app, operations.createWorkout, async ({ body, caller, record }) => {
    const workout = await store.addWorkout(createdWorkout({ id: randomUUID(), accountId: caller.accountId }, body), record);
    relay.kick();
    return workout;
  });

  serveOperation(app, operations.getWorkout, async ({ params, caller }) => {
    const workout = await store.getWorkout(caller.accountId, params.id);
    if (!workout) throw notFound();
    return workout;
  });

  serveOperation(app, operations.getWorkoutRoute, async ({ params, caller }) => {
    const route = await store.getRoute(caller.accountId, params.id);
    if (!route) throw notFound();
    return route;
  });

  serveOperation(app, operations.editWorkout, async ({ params, body, caller }) => {
    const workout = await store.updateWorkout(caller.accountId, params.id, workoutChanges(body));
    if (!workout) throw notFound();
    relay.kick();
    return workout;
  });

  serveOperation(app, operations.deleteWorkout, async ({ params, caller }) => {
    if (!(await store.deleteWorkout(caller.accountId, params.id))) throw notFound();
    relay.kick();
    return ack;
  });
};
