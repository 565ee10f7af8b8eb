import { accountExportParts, identityEvents } from "./account.ts";
import { bodyMetricsBus, bodyMetricsEvents } from "./body-metrics.ts";
import type { EndpointDef, EventDef } from "./bus.ts";
import { coachBus } from "./coach.ts";
import { importsEvents } from "./imports.ts";
import { insightsBus } from "./insights.ts";
import { nutritionBus, nutritionEvents, nutritionItemEvents } from "./nutrition.ts";
import { workoutsBus, workoutsEvents } from "./workouts.ts";

/** Every question on the bus; who answers each is its `service`. */
export const allEndpoints: readonly EndpointDef[] = [
  ...Object.values(bodyMetricsBus),
  ...Object.values(nutritionBus),
  ...Object.values(workoutsBus),
  ...Object.values(coachBus),
  ...Object.values(insightsBus),
  ...Object.values(accountExportParts),
];

/**
 * What one service may do on the bus, and nothing more: the one source of each service's NATS permissions
 * (docs/decisions/0061-per-service-nats-users-and-database-roles.md). It answers the endpoints whose `service` it
 * is; the rest is listed here.
 */
export interface BusAccess {
  /** Questions it asks other services. */
  asks: readonly EndpointDef[];
  /** Events it publishes (from its outbox). */
  publishes: readonly EventDef[];
  /** Events it consumes, each with the durable consumer it reads them through. */
  consumes: readonly { event: EventDef; durable: string }[];
  /** Core NATS subjects it both broadcasts and listens on (every replica hears every message). */
  broadcasts: readonly string[];
  /** Key-value buckets it reads and writes; nobody else can touch them. */
  buckets: readonly string[];
}

/** The durable every service deletes an account's data through (`serveAccountData` in the service kit). */
export const accountDeletionDurable = (service: string) => `${service}-account-deletion`;
const accountDeletion = (service: string) => ({ event: identityEvents.accountDeleted, durable: accountDeletionDurable(service) });

/** The durables nutrition rolls its own item events up into daily totals through, one per event. */
export const nutritionRollupDurable = (event: EventDef) => `nutrition-rollup-${event.subject.split(".").at(-1)}`;
/** The durables insights keeps its read model of weigh-ins and food days through, one per event. */
export const insightsDurable = (event: EventDef) => `insights-${event.subject.replaceAll(".", "-")}`;
/** The durable every imports replica takes import steps from: one work queue shared by the replicas. */
export const importsWorkerDurable = "imports-worker";
/** The durable nutrition copies the account's targets onto its days through. */
export const nutritionTargetsDurable = "nutrition-targets";

export const busAccess = {
  gateway: {
    asks: [
      bodyMetricsBus.dashboard,
      bodyMetricsBus.ingestWeight,
      nutritionBus.dayTotal,
      workoutsBus.weekTotals,
      insightsBus.trend,
      coachBus.ask,
      coachBus.usage,
      ...Object.values(accountExportParts),
    ],
    publishes: [identityEvents.accountDeleted],
    consumes: [],
    broadcasts: ["gateway.credentials.revoked"],
    buckets: ["RATE_LIMITS", "OAUTH_CODES"],
  },
  "body-metrics": {
    asks: [],
    publishes: Object.values(bodyMetricsEvents),
    consumes: [accountDeletion("body-metrics")],
    broadcasts: [],
    buckets: [],
  },
  nutrition: {
    asks: [coachBus.estimateFoods, coachBus.readLabelPhoto],
    publishes: Object.values(nutritionEvents),
    consumes: [
      ...Object.values(nutritionItemEvents).map((event) => ({ event, durable: nutritionRollupDurable(event) })),
      { event: bodyMetricsEvents.targetsUpdated, durable: nutritionTargetsDurable },
      accountDeletion("nutrition"),
    ],
    broadcasts: [],
    buckets: [],
  },
  workouts: {
    asks: [coachBus.parseWorkout, coachBus.estimateWorkoutEnergy, coachBus.readScreenPhoto],
    publishes: Object.values(workoutsEvents),
    consumes: [accountDeletion("workouts")],
    broadcasts: [],
    buckets: [],
  },
  insights: {
    asks: [bodyMetricsBus.weightReadings, bodyMetricsBus.setDailyTargets, bodyMetricsBus.overview, nutritionBus.intakeDays],
    publishes: [],
    consumes: [
      ...[bodyMetricsEvents.weightLogged, bodyMetricsEvents.weightDeleted, ...Object.values(nutritionEvents)]
        .map((event) => ({ event, durable: insightsDurable(event) })),
      accountDeletion("insights"),
    ],
    broadcasts: [],
    buckets: [],
  },
  imports: {
    asks: [
      bodyMetricsBus.importWeighIns, bodyMetricsBus.removeImportedWeighIns, bodyMetricsBus.importMeasurements, bodyMetricsBus.removeImportedMeasurements,
      bodyMetricsBus.importBodyFat, bodyMetricsBus.removeImportedBodyFat,
      nutritionBus.importItems, nutritionBus.removeImportedItems, workoutsBus.importWorkouts, workoutsBus.removeImportedWorkouts,
    ],
    publishes: [importsEvents.importStep],
    consumes: [{ event: importsEvents.importStep, durable: importsWorkerDurable }, accountDeletion("imports")],
    broadcasts: [],
    buckets: [],
  },
  coach: {
    asks: [bodyMetricsBus.overview, bodyMetricsBus.weightSummary, nutritionBus.dayItems, nutritionBus.matchFoods, insightsBus.insights],
    publishes: [],
    consumes: [accountDeletion("coach")],
    broadcasts: [],
    buckets: [],
  },
} satisfies Record<string, BusAccess>;

export type BusUser = keyof typeof busAccess;

/** The streams a service touches: those it publishes to or consumes from, with only its own events' subjects. */
export const streamEventsOf = (service: BusUser): EventDef[] => {
  const access: BusAccess = busAccess[service];
  return [...new Set([...access.publishes, ...access.consumes.map((c) => c.event)])];
};
