import type { z } from "zod";
import type { TargetsInput } from "@fit/contracts";

export type TargetValues = Required<{ [K in keyof z.output<typeof TargetsInput>]: Exclude<z.output<typeof TargetsInput>[K], undefined> }>;

/** PUT replaces: an omitted field is cleared, exactly like an explicit null. */
export const replaceTargets = (input: z.output<typeof TargetsInput>): TargetValues => ({
  goalWeightKg: input.goalWeightKg ?? null,
  startWeightKg: input.startWeightKg ?? null,
  targetDate: input.targetDate ?? null,
  startDate: input.startDate ?? null,
  dailyKcalTarget: input.dailyKcalTarget ?? null,
  proteinTargetG: input.proteinTargetG ?? null,
});
