// Logging from the food database: a search that answers as the words are typed (a combobox over a listbox of
// foods, usable from the keyboard), the picked food's portions, a preview of the numbers, and the write.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.ts";
import { choiceOf, gramsOf, measureLabel, nutrientsOf, type PortionKind, type PortionNumbers } from "../food-portion.ts";
import { MealSelect } from "../meal-select.tsx";
import type { Food, FoodMatch, Meal, RecentFood } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, round, type FormError } from "../ui.tsx";

/** Long enough that a word typed at speed is one request, short enough that results feel immediate. */
const DEBOUNCE_MS = 150;
const RESULTS = 10;
const LABELS = { portion: "Portion", amount: "Amount", meal: "Meal", date: "Day" } as const;
const LISTBOX = "food-results";

const optionId = (index: number) => `food-option-${index}`;

/** Digits alone, as many as a barcode has, are looked up as one (Open Food Facts, when the server enables it). */
const isBarcode = (typed: string) => /^(?:\d{8}|\d{12,14})$/.test(typed);

const numbersInWords = (numbers: PortionNumbers) =>
  [
    `${numbers.kcal ?? "?"} kcal`,
    `${numbers.proteinG ?? "?"} g protein`,
    ...([["fatG", "fat"], ["carbsG", "carbs"], ["fiberG", "fiber"]] as const)
      .filter(([field]) => numbers[field] !== null)
      .map(([field, word]) => `${numbers[field]} g ${word}`),
  ].join(" · ");

/** Where a food comes from, by its id, named as a person knows it: the USDA database, a package's barcode (Open Food Facts), the person's own foods, or their recipes. */
export const FoodBadge = ({ id }: { id: string }) => {
  const usda = /^usda:(\d+)$/.exec(id);
  if (usda) return <span class="badge" title={`USDA FoodData Central, SR Legacy food ${usda[1]}`}>USDA</span>;
  if (id.startsWith("off:")) return <span class="badge" title={`Open Food Facts, barcode ${id.slice("off:".length)}`}>Open Food Facts</span>;
  if (id.startsWith("custom:")) return <span class="badge" title="One of your foods">Mine</span>;
  if (id.startsWith("recipe:")) return <span class="badge" title="One of your recipes">Recipe</span>;
  return <span class="badge">{id}</span>;
};

/** A measure by its id, or grams: the select's value. */
const kindOf = (value: string): PortionKind => (value === "grams" ? { grams: true } : { measure: Number(value) });

/** `meal` belongs to the search, not the food: it stays chosen for the next food (a breakfast is several items). */
const PortionForm = ({ food, date, meal, setMeal, logged }: {
  food: Food;
  date: string;
  meal: Meal | null;
  setMeal: (meal: Meal | null) => void;
  logged: () => void;
}) => {
  const [kindValue, setKindValue] = useState(food.portions[0] ? String(food.portions[0].id) : "grams");
  const [amountText, setAmountText] = useState(food.portions[0] ? "1" : "100");
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = kindOf(kindValue);
  const amount = Number(amountText.trim().replace(",", "."));
  const grams = Number.isFinite(amount) && amount > 0 ? gramsOf(food, kind, amount) : null;

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      const given = numberOrUndefined(new FormData(form), "amount");
      if (given === undefined || given <= 0) {
        setError({ field: "amount", message: "Amount must be a number greater than 0" });
        return;
      }
      setBusy(true);
      await api.logFood({ foodId: food.id, portion: choiceOf(kind, given), date, meal });
      logged();
    } catch (caught) {
      setError(formError(caught, LABELS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Log ${food.name}`}>
      <p><strong>{food.name}</strong> <FoodBadge id={food.id} /></p>
      <div class="row">
        <Field id="db-portion" label="Portion" error={error}>
          <select id="db-portion" name="portion" value={kindValue} onChange={(event) => setKindValue(event.currentTarget.value)}>
            {food.portions.map((portion) => <option key={portion.id} value={String(portion.id)}>{measureLabel(portion)}</option>)}
            <option value="grams">grams</option>
          </select>
        </Field>
        <Field id="db-amount" label={"grams" in kind ? "Grams" : "How many"} error={error}>
          <input id="db-amount" name="amount" inputMode="decimal" value={amountText} onInput={(event) => setAmountText(event.currentTarget.value)} />
        </Field>
        <Field id="db-meal" label="Meal" error={error}><MealSelect id="db-meal" value={meal} onPick={setMeal} /></Field>
      </div>
      <p class="preview" data-testid="portion-preview" aria-live="polite">
        {grams === null ? "Give an amount to see the numbers." : `${round(grams, 1)} g: ${numbersInWords(nutrientsOf(food, grams))}`}
      </p>
      {food.caveat && <p class="muted">{food.caveat}</p>}
      <button type="submit" disabled={busy}>Add</button>
      <FormProblem error={error} />
    </form>
  );
};

/** `logged` runs after each write, so the day's list can reload. */
export const FoodSearch = ({ date, logged }: { date: string; logged: () => void }) => {
  const [words, setWords] = useState("");
  const [matches, setMatches] = useState<FoodMatch[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [food, setFood] = useState<Food | null>(null);
  const [meal, setMeal] = useState<Meal | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentFood[]>([]);
  const input = useRef<HTMLInputElement>(null);
  // Answers can arrive out of order; only the latest question's answer is shown.
  const asked = useRef(0);

  // What the person logs most is offered before they type; it changes with each food they log.
  const loadRecent = () => api.recentFoods(RESULTS).then(setRecent, (caught: unknown) => setProblem(formError(caught, {}).message));
  useEffect(() => void loadRecent(), []);

  useEffect(() => {
    const question = ++asked.current;
    const typed = words.trim();
    if (typed === "") {
      setMatches(null);
      return;
    }
    const timer = window.setTimeout(() => {
      if (isBarcode(typed)) {
        setMatches(null);
        setOpen(false);
        api.foodByBarcode(typed).then(
          (found) => {
            if (question !== asked.current) return;
            setFood(found);
            setProblem(null);
          },
          (caught: unknown) => question === asked.current && setProblem(formError(caught, { code: "Barcode" }).message),
        );
        return;
      }
      api.searchFoods(typed, RESULTS).then(
        (found) => {
          if (question !== asked.current) return;
          setMatches(found);
          setActive(-1);
          setOpen(true);
          setProblem(null);
        },
        (caught: unknown) => question === asked.current && setProblem(formError(caught, {}).message),
      );
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [words]);

  const pick = async (match: FoodMatch) => {
    setOpen(false);
    setProblem(null);
    try {
      setFood(await api.food(match.id));
    } catch (caught) {
      setProblem(formError(caught, {}).message);
    }
  };
  const keyDown = (event: KeyboardEvent) => {
    const count = matches?.length ?? 0;
    if (event.key === "ArrowDown" && count > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, count - 1));
    } else if (event.key === "ArrowUp" && count > 0) {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === "Enter" && open && matches?.[active]) {
      event.preventDefault();
      void pick(matches[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };
  const done = () => {
    setAdded(food?.name ?? null);
    setFood(null);
    setWords("");
    setOpen(false);
    input.current?.focus();
    void loadRecent();
    logged();
  };

  const showing = open && matches !== null && matches.length > 0;
  return (
    <section class="card food-search" aria-labelledby="search-food">
      <h2 id="search-food">Add from your foods and the food database</h2>
      <div class="field combo">
        <label for="food-search">Search foods or type a barcode</label>
        <input
          id="food-search"
          ref={input}
          type="search"
          role="combobox"
          // Preact's types ask a combobox input for a datalist; the listbox below is its list instead.
          list={undefined}
          autocomplete="off"
          aria-autocomplete="list"
          aria-expanded={showing}
          aria-controls={LISTBOX}
          aria-activedescendant={showing && active >= 0 ? optionId(active) : undefined}
          placeholder="chicken breast, banana, 3017620422003…"
          value={words}
          onInput={(event) => { setWords(event.currentTarget.value); setAdded(null); }}
          onKeyDown={keyDown}
          onFocus={() => { if (matches?.length) setOpen(true); }}
        />
        <ul id={LISTBOX} role="listbox" aria-label="Foods found" class="results" hidden={!showing}>
          {(matches ?? []).map((match, index) => (
            <li
              key={match.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              class={index === active ? "active" : undefined}
              // The input keeps focus (and the keyboard) while a result is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => void pick(match)}
            >
              {match.name} <span class="muted">{match.per100g.kcal ?? "?"} kcal / 100 g{match.id.startsWith("usda:") ? "" : ` · ${match.category}`}</span>
            </li>
          ))}
        </ul>
      </div>
      <p class="muted" role="status">
        {matches !== null && matches.length === 0 && words.trim() !== "" ? `No food matches “${words.trim()}”.` : ""}
        {added ? `Added ${added}.` : ""}
      </p>
      {words.trim() === "" && recent.length > 0 && (
        <section aria-labelledby="recent-foods">
          <h3 id="recent-foods">Recent foods</h3>
          <ul class="list recent-foods">
            {recent.map((match) => (
              <li key={match.id}>
                <button type="button" class="link" onClick={() => void pick(match)}>{match.name}</button>{" "}
                <span class="muted">{match.per100g.kcal ?? "?"} kcal / 100 g · logged {match.timesLogged}× · last {match.lastLoggedOn}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {problem && <p class="error" role="alert">{problem}</p>}
      {food && <PortionForm key={food.id} food={food} date={date} meal={meal} setMeal={setMeal} logged={done} />}
    </section>
  );
};
