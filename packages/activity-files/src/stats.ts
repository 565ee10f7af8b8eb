type Maybe = number | null | undefined;

const present = (value: Maybe): value is number => typeof value === "number" && Number.isFinite(value);

/** Null when no value is present, so "the file does not say" stays distinct from zero. */
export const sumOf = (values: readonly Maybe[]): number | null => {
  let sum: number | null = null;
  for (const value of values) if (present(value)) sum = (sum ?? 0) + value;
  return sum;
};

export const maxOf = (values: readonly Maybe[]): number | null => {
  let max: number | null = null;
  for (const value of values) if (present(value) && (max === null || value > max)) max = value;
  return max;
};

/** Per-lap or per-session averages combine weighted by how long each part lasted; unknown durations weigh 1. */
export const weightedMean = (parts: readonly { value: Maybe; weight: Maybe }[]): number | null => {
  let total = 0;
  let weights = 0;
  for (const { value, weight } of parts) {
    if (!present(value)) continue;
    const w = present(weight) && weight > 0 ? weight : 1;
    total += value * w;
    weights += w;
  }
  return weights > 0 ? total / weights : null;
};

interface SampleSummary {
  mean: number | null;
  max: number | null;
}

/**
 * Plain mean of the samples, not time-weighted: readings are gathered apart from their points' timestamps (a point may
 * carry heart rate but no time, or the reverse), and devices record at a near-constant rate, where the two means
 * agree. `zeroIsMissing` is for heart rate and cadence, whose zeros are sensor dropouts or coasting that devices leave
 * out of their averages; power keeps zeros, as cycling convention counts coasting in average power.
 */
const summarizeSamples = (samples: readonly number[], options: { zeroIsMissing: boolean }): SampleSummary => {
  let sum = 0;
  let count = 0;
  let max: number | null = null;
  for (const sample of samples) {
    if (!present(sample) || sample < 0 || (options.zeroIsMissing && sample === 0)) continue;
    sum += sample;
    count += 1;
    if (max === null || sample > max) max = sample;
  }
  return { mean: count > 0 ? sum / count : null, max };
};

export interface SensorReadings {
  heartRates: readonly number[];
  cadences: readonly number[];
  powers: readonly number[];
}

export const sensorSummary = (readings: SensorReadings) => {
  const heart = summarizeSamples(readings.heartRates, { zeroIsMissing: true });
  return {
    avgHr: heart.mean,
    maxHr: heart.max,
    avgPowerW: summarizeSamples(readings.powers, { zeroIsMissing: false }).mean,
    avgCadence: summarizeSamples(readings.cadences, { zeroIsMissing: true }).mean,
  };
};
