// Weights and lengths as people read and type them. The API speaks kilograms and centimetres only; the web app and
// `fit` convert here, both the same way (docs/decisions/0071-units-are-a-client-concern.md). No dependencies: the
// web app bundles this file.

/** The profile's `units`: what a bare number means and how a weight or length is shown. */
export type UnitSystem = "metric" | "imperial" | "imperial_stones";
export type WeightUnit = "kg" | "lb" | "st";
export type LengthUnit = "cm" | "in";

/** A number as typed, with the unit the text named (undefined for a bare number: the profile's unit). */
export interface Typed<Unit> {
  value: number;
  unit: Unit | undefined;
}

/** Exact by definition (the international yard and pound, 1959). */
export const KG_PER_LB = 0.45359237;
export const CM_PER_IN = 2.54;
const LB_PER_ST = 14;
const IN_PER_FT = 12;

/**
 * Kilograms and centimetres are sent with two decimals: a tenth of a pound (45 g) or of an inch (2.5 mm) then
 * comes back as the same tenth (the error, at most 5 g or 0.05 mm, is far inside half a tenth), while the stored
 * number stays one a person can read (180.0 lb is 81.65 kg, not 81.64662660).
 */
const SENT_PLACES = 2;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

export const lbFromKg = (kg: number): number => kg / KG_PER_LB;
export const inFromCm = (cm: number): number => cm / CM_PER_IN;

const NUMBER = String.raw`(\d+(?:[.,]\d*)?|[.,]\d+)`;
/** A decimal comma reads as a point (`81,5` is 81.5), as the number fields always have. */
const numberOf = (text: string) => Number(text.replace(",", "."));
const typedText = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

const WEIGHT_WORDS: Readonly<Record<string, WeightUnit>> = {
  kg: "kg", kgs: "kg", kilo: "kg", kilos: "kg", kilogram: "kg", kilograms: "kg",
  lb: "lb", lbs: "lb", pound: "lb", pounds: "lb",
};
const LENGTH_WORDS: Readonly<Record<string, LengthUnit>> = {
  cm: "cm", centimetre: "cm", centimetres: "cm", centimeter: "cm", centimeters: "cm",
  in: "in", inch: "in", inches: "in", '"': "in",
};

const ONE_NUMBER = new RegExp(`^${NUMBER} ?([a-z"]*)$`);
/** `12st 8lb`, `12 st 8.5`, `12 stone`: stones and, optionally, pounds. */
const STONES = new RegExp(`^${NUMBER} ?(?:st|stones?) ?(?:${NUMBER} ?(?:lbs?|pounds?)?)?$`);
/** `5ft 11in`, `5' 11"`, `6 ft`: feet and, optionally, inches. */
const FEET = new RegExp(`^${NUMBER} ?(?:ft|feet|foot|') ?(?:${NUMBER} ?(?:in|inch|inches|")?)?$`);

const typedOne = <Unit extends string>(text: string, words: Readonly<Record<string, Unit>>): Typed<Unit> | undefined => {
  const match = ONE_NUMBER.exec(text);
  if (!match) return undefined;
  const word = match[2] ?? "";
  if (word !== "" && !Object.hasOwn(words, word)) return undefined;
  return { value: numberOf(match[1] ?? ""), unit: word === "" ? undefined : words[word] };
};

/** A typed weight (`81,5`, `179.4 lbs`, `81.4kg`, `12st 8lb`, `12 st 8.5`), or undefined if it reads as none. */
export const typedWeight = (input: string): Typed<WeightUnit> | undefined => {
  const text = typedText(input);
  const stones = STONES.exec(text);
  if (stones) return { value: numberOf(stones[1] ?? "") * LB_PER_ST + numberOf(stones[2] ?? "0"), unit: "lb" };
  return typedOne(text, WEIGHT_WORDS);
};

/** A typed length (`81,5`, `32in`, `32"`, `81.5 cm`, `5ft 11in`), or undefined if it reads as none. */
export const typedLength = (input: string): Typed<LengthUnit> | undefined => {
  const text = typedText(input);
  const feet = FEET.exec(text);
  if (feet) return { value: numberOf(feet[1] ?? "") * IN_PER_FT + numberOf(feet[2] ?? "0"), unit: "in" };
  return typedOne(text, LENGTH_WORDS);
};

/** What a bare number means under each system: stones for a person who weighs in stones. */
const BARE_WEIGHT: Readonly<Record<UnitSystem, WeightUnit>> = { metric: "kg", imperial: "lb", imperial_stones: "st" };
const BARE_LENGTH: Readonly<Record<UnitSystem, LengthUnit>> = { metric: "cm", imperial: "in", imperial_stones: "in" };
const KG_PER: Readonly<Record<WeightUnit, number>> = { kg: 1, lb: KG_PER_LB, st: KG_PER_LB * LB_PER_ST };
const CM_PER: Readonly<Record<LengthUnit, number>> = { cm: 1, in: CM_PER_IN };

/** The kilograms to send for a typed weight: its own unit if it named one, else the system's. */
export const kgOf = (typed: Typed<WeightUnit>, system: UnitSystem): number =>
  round(typed.value * KG_PER[typed.unit ?? BARE_WEIGHT[system]], SENT_PLACES);

/** The centimetres to send for a typed length: its own unit if it named one, else the system's. */
export const cmOf = (typed: Typed<LengthUnit>, system: UnitSystem): number =>
  round(typed.value * CM_PER[typed.unit ?? BARE_LENGTH[system]], SENT_PLACES);

/** Text a person typed as kilograms to send, or undefined when it reads as no weight. */
export const parseWeightKg = (input: string, system: UnitSystem): number | undefined => {
  const typed = typedWeight(input);
  return typed && kgOf(typed, system);
};

/** Text a person typed as centimetres to send, or undefined when it reads as no length. */
export const parseLengthCm = (input: string, system: UnitSystem): number | undefined => {
  const typed = typedLength(input);
  return typed && cmOf(typed, system);
};

/** Metric as stored (at most two places, no trailing zeros); pounds and inches always to a tenth. */
const metric = (value: number) => String(round(value, SENT_PLACES));
const tenths = (value: number) => value.toFixed(1);

/** Whole stones and the pounds over them to a tenth; the tenths are rounded first, so 13.96 lb carries to a stone. */
const stonesAndPounds = (kg: number): string => {
  const lbTenths = Math.round(lbFromKg(kg) * 10);
  const st = Math.floor(lbTenths / (LB_PER_ST * 10));
  return `${st} st ${tenths((lbTenths - st * LB_PER_ST * 10) / 10)} lb`;
};

/** A weight to show: `81.65 kg`, `180.0 lb`, `12 st 12.0 lb`. */
export const formatWeight = (kg: number, system: UnitSystem): string => {
  if (system === "metric") return `${metric(kg)} kg`;
  return system === "imperial" ? `${tenths(lbFromKg(kg))} lb` : stonesAndPounds(kg);
};

/** A length to show: `81.5 cm`, `32.0 in`. */
export const formatLength = (cm: number, system: UnitSystem): string =>
  system === "metric" ? `${metric(cm)} cm` : `${tenths(inFromCm(cm))} in`;

/**
 * A stored weight as a form field's starting text: the bare number where a bare number means the system's unit
 * (`81.65`, `180.0`); with its units for stones, whose field also takes pounds (`12 st 12.0 lb`).
 */
export const weightFieldText = (kg: number, system: UnitSystem): string => {
  if (system === "metric") return metric(kg);
  return system === "imperial" ? tenths(lbFromKg(kg)) : stonesAndPounds(kg);
};

/** A stored length as a form field's starting text: `81.5`, `32.0`. */
export const lengthFieldText = (cm: number, system: UnitSystem): string =>
  system === "metric" ? metric(cm) : tenths(inFromCm(cm));

/** The unit a form's weight field takes a bare number in, for its label. */
export const weightUnitName = (system: UnitSystem): string => ({ metric: "kg", imperial: "lb", imperial_stones: "st and lb" })[system];
export const lengthUnitName = (system: UnitSystem): string => BARE_LENGTH[system];

/**
 * The API's message with each kilogram or centimetre figure in the person's units ("weightKg must be between 9
 * and 320 kg" reads "… between 19.8 lb and 705.5 lb"): the server speaks metric only.
 */
export const inUnitsOf = (message: string, system: UnitSystem): string =>
  system === "metric"
    ? message
    : message
        .replace(/(\d+(?:\.\d+)?) and (\d+(?:\.\d+)?) (kg|cm)\b/g, (_all, low: string, high: string, unit: string) => `${low} ${unit} and ${high} ${unit}`)
        .replace(/(\d+(?:\.\d+)?) (kg|cm)\b/g, (_all, value: string, unit: string) =>
          unit === "kg" ? formatWeight(Number(value), system) : formatLength(Number(value), system));
