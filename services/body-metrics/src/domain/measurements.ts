/** Shoulders ÷ waist, 3 decimals (the V-taper metric); null unless both sites have been measured. */
export const shoulderToWaist = (latest: ReadonlyArray<{ site: string; valueCm: number }>): number | null => {
  const shoulders = latest.find((m) => m.site === "shoulders")?.valueCm;
  const waist = latest.find((m) => m.site === "waist")?.valueCm;
  if (shoulders === undefined || waist === undefined) return null;
  return Math.round((shoulders / waist) * 1000) / 1000;
};
