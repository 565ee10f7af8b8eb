import sharp from "sharp";

/**
 * Test photos made by the tests themselves: a console screen or a nutrition-facts label rendered by libvips (sharp's
 * text, through pango and the system's DejaVu fonts) with numbers known in advance, then degraded as a phone photo
 * is: a few degrees of rotation, sensor noise, blur and a low JPEG quality.
 */

export const FONTS = ["DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif", "DejaVu Sans Condensed"] as const;

export interface Degradation {
  rotateDeg: number;
  /** Noise amplitude in grey levels (0 clean). */
  noise: number;
  blur: number;
  quality: number;
}
export const CLEAN: Degradation = { rotateDeg: 0, noise: 0, blur: 0, quality: 92 };

export interface ConsoleTruth {
  kind: "treadmill" | "bike" | "rower";
  durationS: number;
  distanceKm: number;
  kcal: number;
  avgHr: number;
}
export interface LabelTruth {
  layout: "us" | "eu";
  servingG: number;
  /** Per serving (US) or per 100 g (EU). */
  kcal: number;
  proteinG: number;
}

/** A small deterministic generator: the corpus is the same on every run. */
export const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const clock = (s: number) => `${Math.floor(s / 60)}:${`${s % 60}`.padStart(2, "0")}`;
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

const consoleText = ({ kind, durationS, distanceKm, kcal, avgHr }: ConsoleTruth) =>
  [kind.toUpperCase() + " WORKOUT SUMMARY", "", `TIME        ${clock(durationS)}`, `DISTANCE    ${distanceKm.toFixed(2)} km`, `CALORIES    ${kcal}`, `AVG HR      ${avgHr} bpm`].join("\n");

const labelText = ({ layout, servingG, kcal, proteinG }: LabelTruth) =>
  layout === "us"
    ? ["Nutrition Facts", "8 servings per container", `Serving size 2/3 cup (${servingG}g)`, "Amount per serving", `Calories ${kcal}`, "Total Fat 8g", "Sodium 160mg", `Protein ${proteinG}g`].join("\n")
    : ["NUTRITION INFORMATION", "Typical values per 100 g", `Energy ${Math.round(kcal * 4.184)} kJ / ${kcal} kcal`, "Fat 9.0 g", "Carbohydrate 31 g", `Protein ${proteinG.toFixed(1)} g`, "Salt 0.8 g"].join("\n");

/** Text on a background as a JPEG, degraded; `exif` is written into the file as a camera would. */
const render = async (
  text: string,
  { font, sizePt, dark, degradation, seed, exif }: { font: string; sizePt: number; dark: boolean; degradation: Degradation; seed: number; exif?: Record<string, Record<string, string>> },
) => {
  const [ink, paper] = dark ? ["#7CF8A0", "#0B1F2A"] : ["#111111", "#F4F1E8"];
  const layer = await sharp({ text: { text: `<span foreground="${ink}">${escape(text)}</span>`, font: `${font} ${sizePt}`, rgba: true, dpi: 96 } })
    .png()
    .toBuffer();
  let image = sharp(layer).flatten({ background: paper }).extend({ top: 40, bottom: 40, left: 48, right: 48, background: paper });
  if (degradation.rotateDeg !== 0) image = image.rotate(degradation.rotateDeg, { background: paper });
  if (degradation.blur > 0) image = image.blur(degradation.blur);
  const { data: rendered, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let data = rendered;
  if (degradation.noise > 0) {
    const random = seeded(seed);
    data = Buffer.from(data.map((value) => Math.max(0, Math.min(255, value + Math.round((random() - 0.5) * 2 * degradation.noise)))));
  }
  const out = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return (exif ? out.withExif(exif) : out).jpeg({ quality: degradation.quality }).toBuffer();
};

export const consolePhoto = (truth: ConsoleTruth, options: { font: string; sizePt: number; degradation: Degradation; seed: number; exif?: Record<string, Record<string, string>> }) =>
  render(consoleText(truth), { ...options, dark: true });

export const labelPhoto = (truth: LabelTruth, options: { font: string; sizePt: number; degradation: Degradation; seed: number }) =>
  render(labelText(truth), { ...options, dark: false });

/** A console's numbers drawn from plausible sessions. */
export const randomConsole = (random: () => number): ConsoleTruth => {
  const kind = (["treadmill", "bike", "rower"] as const)[Math.floor(random() * 3)]!;
  const durationS = 900 + Math.floor(random() * 3600);
  const kmh = kind === "bike" ? 18 + random() * 14 : kind === "rower" ? 8 + random() * 5 : 7 + random() * 7;
  return { kind, durationS, distanceKm: Math.round((kmh * durationS) / 36) / 100, kcal: Math.round((durationS / 60) * (7 + random() * 6)), avgHr: 110 + Math.floor(random() * 55) };
};

export const randomLabel = (random: () => number): LabelTruth => {
  const layout = random() < 0.5 ? "us" : "eu";
  const kcal = layout === "us" ? 80 + Math.floor(random() * 300) : 120 + Math.floor(random() * 380);
  const proteinG = layout === "us" ? 1 + Math.floor(random() * Math.min(20, kcal / 8)) : Math.round((1 + random() * Math.min(25, kcal / 8)) * 10) / 10;
  return { layout, servingG: 20 + Math.floor(random() * 60), kcal, proteinG };
};
