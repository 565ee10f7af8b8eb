import type { MeasurementSite } from "@fit/contracts";

/** Rows as the API shows them (timestamps in Unix ms). */
export const readingView = (r: { id: string; ts: Date; weightKg: number; bodyFatPct: number | null; note: string | null; source: string; createdAt: Date }) => ({
  id: r.id,
  ts: r.ts.getTime(),
  weightKg: r.weightKg,
  bodyFatPct: r.bodyFatPct,
  note: r.note,
  source: r.source as "manual" | "scale" | "import",
  createdAt: r.createdAt.getTime(),
});

export const targetsView = (t: { id: number; goalWeightKg: number | null; startWeightKg: number | null; targetDate: Date | null; startDate: Date | null; dailyKcalTarget: number | null; proteinTargetG: number | null }) => ({
  id: t.id,
  goalWeightKg: t.goalWeightKg,
  startWeightKg: t.startWeightKg,
  targetDate: t.targetDate?.getTime() ?? null,
  startDate: t.startDate?.getTime() ?? null,
  dailyKcalTarget: t.dailyKcalTarget,
  proteinTargetG: t.proteinTargetG,
});

export const measurementView = (m: { id: string; site: string; valueCm: number; ts: Date; createdAt: Date }) => ({
  id: m.id,
  site: m.site as MeasurementSite,
  valueCm: m.valueCm,
  ts: m.ts.getTime(),
  createdAt: m.createdAt.getTime(),
});
