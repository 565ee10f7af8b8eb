import type { ImportKind } from "@fit/contracts";
import { recogniseFoodDiary, type FoodDiaryFormat } from "./food-diary-csv.ts";
import { recogniseWeighIns, type ImportOptions, type WeighInFormat } from "./weigh-in-csv.ts";

/** The kind of file the upload's first bytes show, its header's format (stored with the import) and where its rows start. */
export type Recognised = { offset: number; line: number } & (
  | { kind: Extract<ImportKind, "weigh-ins">; format: WeighInFormat }
  | { kind: Extract<ImportKind, "food">; format: FoodDiaryFormat }
);

export const recogniseFile = (head: Buffer, options: ImportOptions): Recognised | undefined => {
  const weighIns = recogniseWeighIns(head, options);
  if (weighIns) return { kind: "weigh-ins", ...weighIns };
  const food = recogniseFoodDiary(head);
  return food && { kind: "food", ...food };
};

export const UNRECOGNISED = "the file's header is not one of an export this import reads: a weigh-in export (Withings, Fitbit, " +
  "Renpho, Libra, Happy Scale: a date and a weight column) or a food diary (MyFitnessPal's nutrition export, Cronometer's servings " +
  "or daily summary)";
