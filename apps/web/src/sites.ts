// The measured sites in the order a person measures them, and their names in words.
import type { MeasurementSite } from "./types.ts";

export const SITES: readonly MeasurementSite[] = [
  "waist", "shoulders", "chest", "hips", "neck", "biceps_left", "biceps_right", "forearm_left", "forearm_right",
  "thigh_left", "thigh_right", "calf_left", "calf_right",
];

export const siteLabel = (site: string) => site.replace("_", " ");
