/** Rounded to one decimal: how grams of protein, metres and kilograms are shown and stored. */
export const tenth = (value: number) => Math.round(value * 10) / 10;

export const sum = <T>(items: readonly T[], pick: (item: T) => number) => items.reduce((total, item) => total + pick(item), 0);
