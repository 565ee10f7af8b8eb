import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { addDays, formatDay, isDay, localDay } from "../dates.ts";
import { givesMacros, macroTotalsOf, macrosInWords } from "../day-macros.ts";
import { lazyPage } from "../lazy.tsx";
import { useLoad } from "../load.ts";
import { MealSelect, MEALS } from "../meal-select.tsx";
import type { FoodItem, Meal } from "../types.ts";
import { CopyForm, type Copied } from "./food-copy.tsx";
import { FoodBadge, FoodSearch } from "./food-search.tsx";
import { deleteWithUndo, Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";

const LABELS = {
  name: "Food", kcal: "kcal", proteinG: "Protein (g)", fatG: "Fat (g)", carbsG: "Carbs (g)", fiberG: "Fiber (g)", meal: "Meal", date: "Day",
} as const;
/** The macros beside kcal and protein that the API stores; an item may lack them (null: not given). */
const MACROS = [["fatG", "Fat (g)", "fat"], ["carbsG", "Carbs (g)", "carbs"], ["fiberG", "Fiber (g)", "fiber"]] as const;

/** The food fields of a form; an empty fat, carbs or fiber field is null (not given, or cleared when editing). */
const fieldsOf = (form: HTMLFormElement) => {
  const data = new FormData(form);
  const meal = text(data.get("meal"));
  return {
    name: text(data.get("name")),
    kcal: numberOrUndefined(data, "kcal") as number,
    proteinG: numberOrUndefined(data, "proteinG") ?? 0,
    fatG: numberOrUndefined(data, "fatG") ?? null,
    carbsG: numberOrUndefined(data, "carbsG") ?? null,
    fiberG: numberOrUndefined(data, "fiberG") ?? null,
    meal: meal === "" ? null : (meal as Meal),
  };
};

/** The inputs every food form has: what it is, its energy and macros. */
/** Loaded on first showing: the food screen is in the first load, which carries only what the home screen needs. */
const FoodPhoto = lazyPage(() => import("./photo-log.tsx").then((m) => m.FoodPhoto));

const FoodFields = ({ prefix, item, error }: { prefix: string; item?: FoodItem; error: FormError | null }) => {
  const id = (field: string) => `${prefix}-${field}`;
  const number = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
  return (
    <>
      <Field id={id("name")} label="Food" error={error}><input id={id("name")} name="name" defaultValue={item?.name ?? ""} required autofocus={item !== undefined} /></Field>
      <Field id={id("kcal")} label="kcal" error={error}><input id={id("kcal")} name="kcal" inputMode="decimal" defaultValue={number(item?.kcal)} required /></Field>
      <Field id={id("proteinG")} label="Protein (g)" error={error}><input id={id("proteinG")} name="proteinG" inputMode="decimal" defaultValue={number(item?.proteinG)} /></Field>
      {MACROS.map(([field, label]) => (
        <Field key={field} id={id(field)} label={label} error={error}><input id={id(field)} name={field} inputMode="decimal" defaultValue={number(item?.[field])} /></Field>
      ))}
    </>
  );
};

const ItemEditor = ({ item, done }: { item: FoodItem; done: (saved: FoodItem | null) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const id = (field: string) => `item-${item.id}-${field}`;
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    try {
      done(await api.editFood(item.id, { ...fieldsOf(form), date: text(new FormData(form).get("date")) }));
    } catch (caught) {
      setError(formError(caught, LABELS));
    }
  };
  return (
    <form class="inline editor" onSubmit={(event) => void save(event)} noValidate aria-label={`Edit ${item.name}`}>
      <div class="row">
        <FoodFields prefix={`item-${item.id}`} item={item} error={error} />
        <Field id={id("meal")} label="Meal" error={error}><MealSelect id={id("meal")} value={item.meal} /></Field>
        <Field id={id("date")} label="Day" error={error} hint="Change it to move the item"><input id={id("date")} name="date" type="date" defaultValue={item.date} /></Field>
      </div>
      <button type="submit">Save</button>
      <button type="button" class="secondary" onClick={() => done(null)}>Cancel</button>
      <FormProblem error={error} />
    </form>
  );
};

/** "Moved to <day>": the item left this page, so the page says where it went, links there and can take it back. */
const MovedNotice = ({ moved, undo, dismiss }: { moved: { item: FoodItem; from: string }; undo: () => void; dismiss: () => void }) => (
  <div class="created" role="status">
    <span>Moved {moved.item.name} to <a href={`/food?date=${moved.item.date}`}>{formatDay(moved.item.date)}</a>.</span>{" "}
    <button type="button" class="secondary" onClick={undo}>Undo move</button>
    <button type="button" class="link" onClick={dismiss}>Dismiss</button>
  </div>
);

const macroWords = (item: Pick<FoodItem, "fatG" | "carbsG" | "fiberG">) =>
  MACROS.filter(([field]) => item[field] !== null).map(([field, , word]) => ` · ${round(item[field] ?? 0, 1)} g ${word}`).join("");

/** Where an item's numbers came from, when not typed: a food of the USDA database, one of the person's own, or a recipe. */
const Provenance = ({ source }: { source: string | null }) => (source === null ? null : <FoodBadge id={source} />);

export const FoodPage = ({ search }: { search: URLSearchParams }) => {
  const asked = search.get("date");
  // A date that is not a calendar day (a typo in a bookmark) shows today, and says so, rather than "Invalid Date".
  const date = asked !== null && isDay(asked) ? asked : localDay();
  const { value: items, error: loadError, reload } = useLoad(() => api.foodItems(date), [date]);
  const { value: targets } = useLoad(() => api.targets(), []);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [moved, setMoved] = useState<{ item: FoodItem; from: string } | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const [copying, setCopying] = useState<Meal | "day" | null>(null);
  const [copied, setCopied] = useState<Copied | null>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      await api.logFood({ ...fieldsOf(form), date });
      // The meal stays chosen: a breakfast is usually several items in a row.
      const meal = form.elements.namedItem("meal") as HTMLSelectElement;
      const chosen = meal.value;
      form.reset();
      meal.value = chosen;
      (form.elements.namedItem("name") as HTMLInputElement).focus();
      await reload();
    } catch (caught) {
      setError(formError(caught, LABELS));
    }
  };
  const edited = (before: FoodItem, saved: FoodItem | null) => {
    setEditing(null);
    if (!saved) return;
    setMoved(saved.date === before.date ? null : { item: saved, from: before.date });
    void reload();
  };
  const undoMove = async () => {
    if (!moved) return;
    setMoved(null);
    await api.editFood(moved.item.id, { date: moved.from }).catch((caught: unknown) => setError(formError(caught, LABELS)));
    await reload();
  };
  const copyDone = (result: Copied | null) => {
    setCopying(null);
    if (!result) return;
    setCopied(result);
    void reload();
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
  const sum = (list: FoodItem[], field: "kcal" | "proteinG") => list.reduce((total, item) => total + item[field], 0);
  const totalOf = (list: FoodItem[]) => ({ kcal: sum(list, "kcal"), proteinG: sum(list, "proteinG") });
  const total = totalOf(shown);
  const macros = macroTotalsOf(shown);
  const groups = [...MEALS, null].map((meal) => ({ meal, items: shown.filter((item) => item.meal === meal) })).filter((g) => g.items.length);
  const isToday = date === localDay();
  return (
    <>
      <h1>Food</h1>
      {asked !== null && asked !== date && <p class="error" role="alert">“{asked}” is not a date (YYYY-MM-DD): showing today.</p>}
      <nav class="day-nav" aria-label="Day">
        <a href={`/food?date=${addDays(date, -1)}`}>← Previous day</a>
        <strong>{isToday ? "Today" : formatDay(date)}</strong>
        <a href={`/food?date=${addDays(date, 1)}`}>Next day →</a>
      </nav>
      <p class="totals" data-testid="day-total">
        {round(total.kcal, 0)}{targets?.dailyKcalTarget ? ` / ${targets.dailyKcalTarget}` : ""} kcal ·{" "}
        {round(total.proteinG, 0)}{targets?.proteinTargetG ? ` / ${targets.proteinTargetG}` : ""} g protein
      </p>
      {givesMacros(macros) && <p class="muted" data-testid="day-macros">{macrosInWords(macros)}</p>}
      {shown.length > 0 && (copying === "day"
        ? <CopyForm date={date} meal={null} done={copyDone} />
        : <p><button type="button" class="secondary" onClick={() => setCopying("day")}>Copy day</button></p>)}
      <p role="status" data-testid="copied">
        {copied && <>Logged {copied.count} item{copied.count === 1 ? "" : "s"} again on{" "}
          <a href={`/food?date=${copied.date}`}>{copied.date === localDay() ? "today" : formatDay(copied.date)}</a>
          {copied.meal ? ` (${copied.meal})` : ""}.</>}
      </p>
      {moved && <MovedNotice moved={moved} undo={() => void undoMove()} dismiss={() => setMoved(null)} />}
      <FoodSearch date={date} logged={() => void reload()} />
      <FoodPhoto date={date} logged={() => void reload()} />
      <p><a href="/food/mine">My foods and recipes</a>: make a food from its label, or a recipe from foods.</p>
      <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="log-food">
        <h2 id="log-food">Or enter by hand</h2>
        <div class="row">
          <FoodFields prefix="food" error={error} />
          <Field id="food-meal" label="Meal" error={error}><MealSelect id="food-meal" value={null} /></Field>
        </div>
        <button type="submit">Add</button>
        <FormProblem error={error} />
      </form>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {items && shown.length === 0 && <p class="muted">Nothing logged on this day.</p>}
      {groups.map(({ meal, items: list }) => {
        const meals = totalOf(list);
        return (
          <section key={meal ?? "other"} class="meal" aria-label={meal ?? "other"}>
            <h2>{meal ?? "other"} <span class="muted">{round(meals.kcal, 0)} kcal · {round(meals.proteinG, 0)} g</span></h2>
            {meal && (copying === meal
              ? <CopyForm date={date} meal={meal} done={copyDone} />
              : <button type="button" class="secondary" onClick={() => setCopying(meal)} aria-label={`Log again: ${meal}`}>Log again</button>)}
            <ul class="list">
              {list.map((item) => (
                <li key={item.id}>
                  {editing === item.id ? (
                    <ItemEditor item={item} done={(saved) => edited(item, saved)} />
                  ) : (
                    <>
                      <div><strong>{item.name}</strong> <span>{item.kcal} kcal · {item.proteinG} g protein{macroWords(item)}</span>{item.estimate && <span class="muted"> (estimate)</span>}<Provenance source={item.source} /></div>
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
