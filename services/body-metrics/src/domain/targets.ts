import type { z } from "zod";
import type { Targets, TargetsInput } from "@fit/contracts";

export type TargetValues = Required<{ [K in keyof z.output<typeof TargetsInput>]: Exclude<z.output<typeof TargetsInput>[K], undefined> }>;

/** The daily targets replaced and the goal kept: what adopting insights' suggestion changes. */
export const withDailyTargets = (current: Targets | null, daily: { dailyKcalTarget: number; proteinTargetG: number }): TargetValues => ({
  goalWeightKg: current?.goalWeightKg ?? null,
  startWeightKg: current?.startWeightKg ?? null,
  targetDate: current?.targetDate ?? null,
  startDate: current?.startDate ?? null,
  ...daily,
});

/** PUT replaces: an omitted field is cleared, exactly like an explicit null. */
export const replaceTargets = (input: z.output<typeof TargetsInput>): TargetValues => ({
  goalWeightKg: input.goalWeightKg ?? null,
  startWeightKg: input.startWeightKg ?? null,
  targetDate: input.targetDate ?? null,
  startDate: input.startDate ?? null,
  dailyKcalTarget: input.dailyKcalTarget ?? null,
  proteinTargetG: input.proteinTargetG ?? null,
});
