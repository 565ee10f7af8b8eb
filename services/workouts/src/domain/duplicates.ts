/**
 * One activity recorded or exported twice (the same run as .fit, .gpx and .tcx) is one workout: told apart by the
 * activity, not the bytes, and the richer recording's figures kept
 * (docs/decisions/0073-duplicate-activities-richer-file-wins.md).
 */

/** A watch starts on the button, a phone app on its first fix, an export at its first point: minutes apart at most. */
export const START_TOLERANCE_MS = 5 * 60_000;
/** The share of the longer recording both must cover: a cropped export still matches, back-to-back sessions do not. */
const MIN_OVERLAP = 0.8;

interface Span {
  startedAt: Date;
  durationS: number;
}

/** The share of the longer of two spans that both cover; 0 when they do not meet. */
export const overlapShare = (a: Span, b: Span): number => {
  const [aStart, bStart] = [a.startedAt.getTime(), b.startedAt.getTime()];
  const common = Math.min(aStart + a.durationS * 1000, bStart + b.durationS * 1000) - Math.max(aStart, bStart);
  const longest = Math.max(a.durationS, b.durationS) * 1000;
  return longest > 0 ? Math.max(0, common) / longest : 0;
};

/** The logged workout `incoming` records again, if any: the same type, started within the tolerance, the best overlap of at least 80 %. */
export const sameActivity = <W extends Span & { activityType: string }>(logged: readonly W[], incoming: Span & { activityType: string }): W | null => {
  let best: { workout: W; share: number } | null = null;
  for (const workout of logged) {
    if (workout.activityType !== incoming.activityType) continue;
    if (Math.abs(workout.startedAt.getTime() - incoming.startedAt.getTime()) > START_TOLERANCE_MS) continue;
    const share = overlapShare(workout, incoming);
    if (share >= MIN_OVERLAP && (best === null || share > best.share)) best = { workout, share };
  }
  return best?.workout ?? null;
};

/** The figures a recording may state; null (or left out) when it does not. An `energySource` marks energyKcal as an estimate. */
export type Figures = {
  [K in "movingDurationS" | "distanceM" | "elevationGainM" | "energyKcal" | "energyLow" | "energyHigh" | "avgHr" | "maxHr" | "avgPowerW" | "avgCadence"]?: number | null;
} & { energySource?: string | null };

const MEASURED = ["movingDurationS", "distanceM", "elevationGainM", "avgHr", "maxHr", "avgPowerW", "avgCadence"] as const;

const stated = (value: number | null | undefined) => value !== null && value !== undefined;
const measuredEnergy = (figures: Figures) => stated(figures.energyKcal) && !figures.energySource;

/** One point per figure stated, energy only when measured (an estimate is not the device's), one for a positioned track. */
export const richness = (figures: Figures, hasTrack: boolean): number =>
  MEASURED.filter((field) => stated(figures[field])).length + (measuredEnergy(figures) ? 1 : 0) + (hasTrack ? 1 : 0);

/**
 * The richer recording's figures over the logged ones: each it states replaces the logged one, each it leaves out
 * keeps it; a measured energy is never replaced by an estimate.
 */
export const richerFigures = (logged: Figures, richer: Figures): Figures => {
  const keepEnergy = !stated(richer.energyKcal) || (measuredEnergy(logged) && !measuredEnergy(richer));
  const energy = keepEnergy ? logged : richer;
  return {
    ...Object.fromEntries(MEASURED.map((field) => [field, richer[field] ?? logged[field] ?? null])),
    energyKcal: energy.energyKcal ?? null,
    energyLow: energy.energyLow ?? null,
    energyHigh: energy.energyHigh ?? null,
    energySource: energy.energySource ?? null,
  };
};
