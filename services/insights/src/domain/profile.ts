import { defaultProfile, type Profile, type ProfileInput } from "@fit/contracts";
import type { z } from "zod";

/** A replacing write: what is not sent takes its default, as `PUT /api/targets` clears what is not sent. */
export const profileOf = (input: z.output<typeof ProfileInput>): Profile => ({
  heightCm: input.heightCm ?? defaultProfile.heightCm,
  birthYear: input.birthYear ?? defaultProfile.birthYear,
  sex: input.sex ?? defaultProfile.sex,
  activityLevel: input.activityLevel ?? defaultProfile.activityLevel,
  units: input.units ?? defaultProfile.units,
  timeZone: input.timeZone ?? defaultProfile.timeZone,
  firstDayOfWeek: input.firstDayOfWeek ?? defaultProfile.firstDayOfWeek,
});
