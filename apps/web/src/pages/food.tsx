import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { addDays, formatDay, localDay } from "../dates.ts";
import { useLoad } from "../load.ts";
import type { FoodItem, Meal } from "../types.ts";
import { deleteWithUndo, Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";

const MEALS: readonly Meal[] = ["breakfast", "lunch", "dinner", "snack"];
const FIELDS = ["name", "kcal", "proteinG", "carbsG", "fatG", "meal", "date"] as const;

/** The food fields of a form; a field left empty is not sent (the API keeps or clears what it means). */
const fieldsOf = (form: HTMLFormElement) => {
  const data = new FormData(form);
  const meal = text(data.get("meal"));
  return {
    name: text(data.get("name")),
    kcal: numberOrUndefined(data.get("kcal")) as number,
    proteinG: numberOrUndefined(data.get("proteinG")) ?? 0,
    meal: meal === "" ? null : (meal as Meal),
  };
};

const MealSelect = ({ id, value }: { id: string; value: Meal | null }) => (
  <select id={id} name="meal">
    <option value="" selected={value === null}>no meal</option>
    {MEALS.map((meal) => <option key={meal} value={meal} selected={meal === value}>{meal}</option>)}
  </select>
);

const ItemEditor = ({ item, done }: { item: FoodItem; done: (changed: boolean) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const id = (field: string) => `item-${item.id}-${field}`;
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    try {
      await api.editFood(item.id, { ...fieldsOf(form), date: text(new FormData(form).get("date")) });
      done(true);
    } catch (caught) {
      setError(formError(caught, FIELDS));
    }
  };
  return (
    <form class="inline editor" onSubmit={(event) => void save(event)} noValidate aria-label={`Edit ${item.name}`}>
      <div class="row">
        <Field id={id("name")} label="Food" error={error}><input id={id("name")} name="name" defaultValue={item.name} autofocus /></Field>
        <Field id={id("kcal")} label="kcal" error={error}><input id={id("kcal")} name="kcal" inputMode="decimal" defaultValue={String(item.kcal)} /></Field>
        <Field id={id("proteinG")} label="Protein (g)" error={error}><input id={id("proteinG")} name="proteinG" inputMode="decimal" defaultValue={String(item.proteinG)} /></Field>
        <Field id={id("meal")} label="Meal" error={error}><MealSelect id={id("meal")} value={item.meal} /></Field>
        <Field id={id("date")} label="Day" error={error} hint="Change it to move the item"><input id={id("date")} name="date" type="date" defaultValue={item.date} /></Field>
      </div>
      <button type="submit">Save</button>
      <button type="button" class="secondary" onClick={() => done(false)}>Cancel</button>
      <FormProblem error={error} />
    </form>
  );
};

export const FoodPage = ({ search }: { search: URLSearchParams }) => {
  const date = search.get("date") ?? localDay();
  const { value: items, error: loadError, reload } = useLoad(() => api.foodItems(date), [date]);
  const { value: targets } = useLoad(() => api.targets(), []);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<FormError | null>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      await api.logFood({ ...fieldsOf(form), date });
      form.reset();
      (form.elements.namedItem("name") as HTMLInputElement).focus();
      await reload();
    } catch (caught) {
      setError(formError(caught, FIELDS));
    }
  };
  const remove = (item: FoodItem) => {
    setHidden((set) => new Set(set).add(item.id));
    deleteWithUndo({
      label: item.name,
      commit: () => api.deleteFood(item.id),
      restore: () => setHidden((set) => { const next = new Set(set); next.delete(item.id); return next; }),
    });
  };

  const shown = (items ?? []).filter((item) => !hidden.has(item.id));
  const sum = (list: FoodItem[]) => ({
    kcal: list.reduce((total, item) => total + item.kcal, 0),
    proteinG: list.reduce((total, item) => total + item.proteinG, 0),
  });
  const total = sum(shown);
  const groups = [...MEALS, null].map((meal) => ({ meal, items: shown.filter((item) => item.meal === meal) })).filter((g) => g.items.length);
  const isToday = date === localDay();
  return (
    <>
      <h1>Food</h1>
      <nav class="day-nav" aria-label="Day">
        <a href={`/food?date=${addDays(date, -1)}`}>← Previous day</a>
        <strong>{isToday ? "Today" : formatDay(date)}</strong>
        <a href={`/food?date=${addDays(date, 1)}`}>Next day →</a>
      </nav>
      <p class="totals" data-testid="day-total">
        {round(total.kcal, 0)}{targets?.dailyKcalTarget ? ` / ${targets.dailyKcalTarget}` : ""} kcal ·{" "}
        {round(total.proteinG, 0)}{targets?.proteinTargetG ? ` / ${targets.proteinTargetG}` : ""} g protein
      </p>
      <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="log-food">
        <h2 id="log-food">Add food</h2>
        <div class="row">
          <Field id="food-name" label="Food" error={error}><input id="food-name" name="name" required /></Field>
          <Field id="food-kcal" label="kcal" error={error}><input id="food-kcal" name="kcal" inputMode="decimal" required /></Field>
          <Field id="food-proteinG" label="Protein (g)" error={error}><input id="food-proteinG" name="proteinG" inputMode="decimal" /></Field>
          <Field id="food-meal" label="Meal" error={error}><MealSelect id="food-meal" value={null} /></Field>
        </div>
        <button type="submit">Add</button>
        <FormProblem error={error} />
      </form>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {items && shown.length === 0 && <p class="muted">Nothing logged on this day.</p>}
      {groups.map(({ meal, items: list }) => {
        const meals = sum(list);
        return (
          <section key={meal ?? "other"} class="meal" aria-label={meal ?? "other"}>
            <h2>{meal ?? "other"} <span class="muted">{round(meals.kcal, 0)} kcal · {round(meals.proteinG, 0)} g</span></h2>
            <ul class="list">
              {list.map((item) => (
                <li key={item.id}>
                  {editing === item.id ? (
                    <ItemEditor item={item} done={(changed) => { setEditing(null); if (changed) void reload(); }} />
                  ) : (
                    <>
                      <div><strong>{item.name}</strong> <span>{item.kcal} kcal · {item.proteinG} g protein</span>{item.estimate && <span class="muted"> (estimate)</span>}</div>
                      <div class="actions">
                        <button type="button" class="secondary" onClick={() => setEditing(item.id)} aria-label={`Edit ${item.name}`}>Edit</button>
                        <button type="button" class="danger" onClick={() => remove(item)} aria-label={`Delete ${item.name}`}>Delete</button>
                      </div>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
};
