// The meal a food item belongs to, as every food form offers it.
import type { Meal } from "./types.ts";

export const MEALS: readonly Meal[] = ["breakfast", "lunch", "dinner", "snack"];

/** `onPick` makes it follow state (a meal kept between adds); without it the form reads it on submit. */
export const MealSelect = ({ id, value, onPick }: { id: string; value: Meal | null; onPick?: (meal: Meal | null) => void }) => (
  <select
    id={id}
    name="meal"
    onChange={onPick && ((event) => { const chosen = event.currentTarget.value; onPick(chosen === "" ? null : (chosen as Meal)); })}
  >
    <option value="" selected={value === null}>no meal</option>
    {MEALS.map((meal) => <option key={meal} value={meal} selected={meal === value}>{meal}</option>)}
  </select>
);
