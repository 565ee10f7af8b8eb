// The HTTP operations of weigh-ins, body measurements and goals (body-metrics).
import { Ack, CreatedAck, IdParams } from "../common.ts";
import {
  MeasurementCreate, MeasurementListQuery, MeasurementPage, Targets, TargetsInput, WeightCreate, WeightEdit, WeightListQuery, WeightPage,
} from "../body-metrics.ts";
import { define, type Operation } from "./operation.ts";

export const bodyMetricsOperations = {
  logWeight: define({
    id: "logWeight", method: "POST", path: "/api/weight", service: "body-metrics", tag: "Weight", scope: "weight:write",
    summary: "Log a weigh-in",
    description: "Records a manual body-weight reading. Returns the new reading's id beside `ok`.",
    body: WeightCreate, response: CreatedAck, errors: [400, 409, 413, 415, 422], idempotencyKey: true,
  }),
  listWeights: define({
    id: "listWeights", method: "GET", path: "/api/weight", service: "body-metrics", tag: "Weight", scope: "weight:read",
    summary: "List weigh-ins", description: "The caller's readings, newest first, in pages; `from`/`to` bound `ts`.",
    query: WeightListQuery, response: WeightPage, errors: [400],
  }),
  editWeightNote: define({
    id: "editWeightNote", method: "PATCH", path: "/api/weight/:id", service: "body-metrics", tag: "Weight",
    scope: "weight:write", summary: "Edit a weigh-in note", description: "Updates or clears (null) the note of a past reading.",
    params: IdParams, body: WeightEdit, response: Ack, errors: [400, 404, 413, 415],
  }),
  deleteWeight: define({
    id: "deleteWeight", method: "DELETE", path: "/api/weight/:id", service: "body-metrics", tag: "Weight",
    scope: "weight:write", summary: "Delete a weigh-in", params: IdParams, response: Ack, errors: [400, 404],
  }),
  logMeasurement: define({
    id: "logMeasurement", method: "POST", path: "/api/measurements", service: "body-metrics", tag: "Measurements",
    scope: "measurements:write", summary: "Log a body measurement", body: MeasurementCreate, response: CreatedAck,
    errors: [400, 409, 413, 415, 422], idempotencyKey: true,
  }),
  listMeasurements: define({
    id: "listMeasurements", method: "GET", path: "/api/measurements", service: "body-metrics", tag: "Measurements",
    scope: "measurements:read", summary: "List body measurements",
    description: "Newest first, in pages; filter by `site` and by `from`/`to` on `ts`.",
    query: MeasurementListQuery, response: MeasurementPage, errors: [400],
  }),
  deleteMeasurement: define({
    id: "deleteMeasurement", method: "DELETE", path: "/api/measurements/:id", service: "body-metrics",
    tag: "Measurements", scope: "measurements:write", summary: "Delete a body measurement", params: IdParams,
    response: Ack, errors: [400, 404],
  }),
  getTargets: define({
    id: "getTargets", method: "GET", path: "/api/targets", service: "body-metrics", tag: "Targets",
    scope: "targets:read", summary: "Get goals", description: "The caller's targets, or null when none are set.",
    response: Targets.nullable(), errors: [],
  }),
  putTargets: define({
    id: "putTargets", method: "PUT", path: "/api/targets", service: "body-metrics", tag: "Targets",
    scope: "targets:write", summary: "Set goals", description: "Replaces the caller's targets; omitted fields are cleared.",
    body: TargetsInput, response: Targets, errors: [400, 413, 415],
  }),
} satisfies Record<string, Operation>;
