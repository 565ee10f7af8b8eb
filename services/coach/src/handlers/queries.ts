import { coachBus, utcDay } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";
import type { Coach } from "./coach.ts";

/** The coach answers only over the bus, on the `coach` queue group: any number of replicas share the work. */
export const serveCoachQueries = (bus: Bus, coach: Coach, store: Store) => [
  bus.serve(coachBus.ask, (request) => coach.ask(request)),
  bus.serve(coachBus.estimateFoods, (request) => coach.estimateFoods(request)),
  bus.serve(coachBus.parseWorkout, (request) => coach.parseWorkout(request)),
  bus.serve(coachBus.estimateWorkoutEnergy, (request) => coach.estimateWorkoutEnergy(request)),
  bus.serve(coachBus.readScreenPhoto, (request) => coach.readScreenPhoto(request)),
  bus.serve(coachBus.readLabelPhoto, (request) => coach.readLabelPhoto(request)),
  bus.serve(coachBus.usage, async ({ accountId }) => {
    const date = utcDay(Date.now());
    return { date, ...(await store.usage(accountId, date)), limits: coach.limits, estimator: coach.estimator };
  }),
];
