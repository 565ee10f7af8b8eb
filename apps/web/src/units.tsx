// The profile's units, which every weight and length on screen follows; the API itself speaks kg and cm only
// (docs/decisions/0071-units-are-a-client-concern.md).
import { inFromCm, lbFromKg, type UnitSystem } from "@fit/units";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { round } from "./ui.tsx";

/** Read once after sign-in, before any screen. */
export const UnitsContext = createContext<{ units: UnitSystem }>({ units: "metric" });

export const useUnits = () => useContext(UnitsContext);

const LB_PER_ST = 14;

/** A weight chart's numbers: kilograms or pounds; stones are charted in pounds and their ticks written in stones. */
export const weightChart = (units: UnitSystem) => {
  const unit = units === "metric" ? "kg" : "lb";
  return {
    unit,
    value: (kg: number) => (units === "metric" ? kg : lbFromKg(kg)),
    tick: units === "imperial_stones"
      ? (lb: number) => `${Math.floor(lb / LB_PER_ST)} st ${round(lb % LB_PER_ST, 1)}`
      : (value: number) => `${value} ${unit}`,
  };
};

/** A length chart's numbers: centimetres or inches. */
export const lengthChart = (units: UnitSystem) => ({
  unit: units === "metric" ? "cm" : "in",
  value: (cm: number) => (units === "metric" ? cm : inFromCm(cm)),
});
