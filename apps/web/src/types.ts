// Payload types inferred from the contracts' schemas: types only, so no zod code reaches the bundle.
import type * as C from "@fit/contracts";
import type { z } from "zod";

export type Dashboard = z.infer<typeof C.Dashboard>;
export type WeightReading = z.infer<typeof C.WeightReading>;
export type WeightCreate = z.input<typeof C.WeightCreate>;
export type WeightPage = z.infer<typeof C.WeightPage>;
export type Measurement = z.infer<typeof C.Measurement>;
export type MeasurementPage = z.infer<typeof C.MeasurementPage>;
export type MeasurementSite = C.MeasurementSite;
export type Targets = C.Targets;
export type TargetsInput = z.input<typeof C.TargetsInput>;
export type FoodItem = z.infer<typeof C.FoodItem>;
export type FoodItemCreate = z.input<typeof C.FoodItemCreate>;
export type FoodItemPatch = z.input<typeof C.FoodItemPatch>;
export type Meal = C.Meal;
export type DailyTotal = C.DailyTotal;
export type ApiKey = C.ApiKey;
export type ApiKeyCreate = z.input<typeof C.ApiKeyCreate>;
export type ApiKeyCreated = z.infer<typeof C.ApiKeyCreated>;
export type SessionInfo = C.SessionInfo;
export type ConnectedApp = C.ConnectedApp;
export type SessionView = z.infer<typeof C.SessionView>;
export type Scope = C.Scope;
