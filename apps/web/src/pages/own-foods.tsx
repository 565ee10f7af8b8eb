// The person's own foods and recipes: a food made from its label (per 100 g or per serving), and a recipe built
// by searching foods and giving each an amount in grams, with its figures per serving shown as it is built. Both
// are then found by the Food page's search and logged with a portion like any food.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.ts";
import { useLoad } from "../load.ts";
import type { CustomFood, CustomFoodInput, FoodMatch, Recipe } from "../types.ts";
import { Field, FormProblem, formError, numberOrUndefined, round, text, type FormError } from "../ui.tsx";
import "../screens.css";

const FOOD_LABELS = {
  name: "Name", brand: "Brand", per: "Figures per", servingG: "Serving (g)", kcal: "kcal", proteinG: "Protein (g)", fatG: "Fat (g)",
  carbsG: "Carbs (g)", fiberG: "Fiber (g)", sugarsG: "Sugars (g)", sodiumMg: "Sodium (mg)",
} as const;
const RECIPE_LABELS = { name: "Recipe name", servings: "Servings", cookedWeightG: "Cooked weight (g)", ingredients: "Ingredients" } as const;
const FIGURES = [["kcal", "kcal"], ["proteinG", "Protein (g)"], ["fatG", "Fat (g)"], ["carbsG", "Carbs (g)"], ["fiberG", "Fiber (g)"], ["sugarsG", "Sugars (g)"], ["sodiumMg", "Sodium (mg)"]] as const;
const DEBOUNCE_MS = 150;

interface Figures {
  kcal: number | null;
  proteinG: number | null;
  fatG: number | null;
  carbsG: number | null;
  fiberG: number | null;
}

const figuresInWords = (figures: Figures) =>
  [`${figures.kcal ?? "?"} kcal`, `${figures.proteinG ?? "?"} g protein`, ...([["fatG", "fat"], ["carbsG", "carbs"], ["fiberG", "fiber"]] as const)
    .filter(([field]) => figures[field] !== null).map(([field, word]) => `${figures[field]} g ${word}`)].join(" · ");

/** The form's food; an empty optional field is null (unknown, or cleared when editing). */
const foodOf = (form: HTMLFormElement): CustomFoodInput => {
  const data = new FormData(form);
  const optional = (field: string) => numberOrUndefined(data, field) ?? null;
  return {
    name: text(data.get("name")),
    brand: text(data.get("brand")) || null,
    per: text(data.get("per")) === "serving" ? "serving" : "100g",
    servingG: optional("servingG"),
    kcal: numberOrUndefined(data, "kcal") as number,
    proteinG: numberOrUndefined(data, "proteinG") as number,
    fatG: optional("fatG"), carbsG: optional("carbsG"), fiberG: optional("fiberG"), sugarsG: optional("sugarsG"), sodiumMg: optional("sodiumMg"),
  };
};

const FoodForm = ({ food, done }: { food?: CustomFood; done: (saved: CustomFood | null) => void }) => {
  const [error, setError] = useState<FormError | null>(null);
  const prefix = food ? `edit-${food.id.slice(-8)}` : "own";
  const id = (field: string) => `${prefix}-${field}`;
  const value = (v: number | string | null | undefined) => (v === null || v === undefined ? "" : String(v));
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      const body = foodOf(form);
      const saved = food ? await api.editCustomFood(food.id, body) : await api.createCustomFood(body);
      if (!food) form.reset();
      done(saved);
    } catch (caught) {
      setError(formError(caught, FOOD_LABELS));
    }
  };
  return (
    <form class={food ? "inline editor" : "card"} onSubmit={(event) => void save(event)} noValidate aria-label={food ? `Edit ${food.name}` : "New food"}>
      {!food && <h3>New food</h3>}
      <div class="row">
        <Field id={id("name")} label="Name" error={error}><input id={id("name")} name="name" defaultValue={food?.name ?? ""} required /></Field>
        <Field id={id("brand")} label="Brand" error={error}><input id={id("brand")} name="brand" defaultValue={food?.brand ?? ""} /></Field>
        <Field id={id("per")} label="Figures per" error={error}>
          <select id={id("per")} name="per" defaultValue={food?.per ?? "100g"}>
            <option value="100g">100 g</option>
            <option value="serving">serving</option>
          </select>
        </Field>
        <Field id={id("servingG")} label="Serving (g)" error={error}><input id={id("servingG")} name="servingG" inputMode="decimal" defaultValue={value(food?.servingG)} /></Field>
        {FIGURES.map(([field, label]) => (
          <Field key={field} id={id(field)} label={label} error={error}>
            <input id={id(field)} name={field} inputMode="decimal" defaultValue={value(food?.[field])} required={field === "kcal" || field === "proteinG"} />
          </Field>
        ))}
      </div>
      <button type="submit">{food ? "Save" : "Add food"}</button>
      {food && <button type="button" class="secondary" onClick={() => done(null)}>Cancel</button>}
      <FormProblem error={error} />
    </form>
  );
};

const MyFoods = () => {
  const { value: foods, error: loadError, reload } = useLoad(() => api.customFoods(), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = async (food: CustomFood) => {
    if (!window.confirm(`Delete ${food.name}? Items already logged keep their numbers.`)) return;
    setProblem(null);
    await api.deleteCustomFood(food.id).then(reload, (caught: unknown) => setProblem(formError(caught, {}).message));
  };
  return (
    <section aria-labelledby="my-foods">
      <h2 id="my-foods">My foods</h2>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {problem && <p class="error" role="alert">{problem}</p>}
      {foods && foods.length === 0 && <p class="muted">No foods of your own yet: add one from its label below.</p>}
      <ul class="list">
        {(foods ?? []).map((food) => (
          <li key={food.id}>
            {editing === food.id ? (
              <FoodForm food={food} done={(saved) => { setEditing(null); if (saved) void reload(); }} />
            ) : (
              <>
                <div><strong>{food.name}</strong>{food.brand && <span class="muted"> {food.brand}</span>} <span>{figuresInWords(food.per100g)} per 100 g</span></div>
                <div class="actions">
                  <button type="button" class="secondary" onClick={() => setEditing(food.id)} aria-label={`Edit ${food.name}`}>Edit</button>
                  <button type="button" class="danger" onClick={() => void remove(food)} aria-label={`Delete ${food.name}`}>Delete</button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      <FoodForm done={() => void reload()} />
    </section>
  );
};

interface Ingredient {
  match: FoodMatch;
  gramsText: string;
}

const gramsIn = (ingredient: Ingredient) => {
  const grams = Number(ingredient.gramsText.trim().replace(",", "."));
  return Number.isFinite(grams) && grams > 0 ? grams : null;
};

/** What the recipe will come to per serving, from the foods' figures per 100 g: the server computes the same sums. */
const previewOf = (ingredients: readonly Ingredient[], servings: number): Figures | null => {
  if (ingredients.length === 0 || !(servings > 0) || ingredients.some((i) => gramsIn(i) === null)) return null;
  const sum = (field: keyof Figures) =>
    ingredients.reduce<number | null>((total, i) => {
      const per100g = i.match.per100g[field];
      return total === null || per100g === null ? null : total + (per100g * gramsIn(i)!) / 100;
    }, 0);
  const perServing = (field: keyof Figures, places: number) => {
    const total = sum(field);
    return total === null ? null : round(total / servings, places);
  };
  return { kcal: perServing("kcal", 1), proteinG: perServing("proteinG", 1), fatG: perServing("fatG", 1), carbsG: perServing("carbsG", 1), fiberG: perServing("fiberG", 1) };
};

/** A search of foods to put in the recipe: results as buttons, each adding that food. */
const IngredientSearch = ({ add }: { add: (match: FoodMatch) => void }) => {
  const [words, setWords] = useState("");
  const [matches, setMatches] = useState<FoodMatch[]>([]);
  const asked = useRef(0);
  useEffect(() => {
    const question = ++asked.current;
    const typed = words.trim();
    if (typed === "") {
      setMatches([]);
      return;
    }
    const timer = window.setTimeout(() => {
      void api.searchFoods(typed, 8).then((found) => question === asked.current && setMatches(found.filter((f) => !f.id.startsWith("recipe:"))), () => undefined);
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [words]);
  return (
    <div class="field">
      <label for="ingredient-search">Find an ingredient</label>
      <input id="ingredient-search" type="search" autocomplete="off" placeholder="rolled oats, banana, milk…" value={words} onInput={(event) => setWords(event.currentTarget.value)} />
      <ul class="list" aria-label="Ingredients found">
        {matches.map((match) => (
          <li key={match.id}>
            <span>{match.name} <span class="muted">{match.per100g.kcal ?? "?"} kcal / 100 g</span></span>
            <button type="button" class="secondary" onClick={() => { add(match); setWords(""); }} aria-label={`Add ${match.name}`}>Add</button>
          </li>
        ))}
      </ul>
    </div>
  );
};

const RecipeBuilder = ({ saved }: { saved: (recipe: Recipe) => void }) => {
  const [ingredients, setIngredients] = useState<Ingredient[]>([]);
  const [servingsText, setServingsText] = useState("1");
  const [error, setError] = useState<FormError | null>(null);
  const servings = Number(servingsText.trim().replace(",", "."));
  const preview = previewOf(ingredients, servings);
  const setGrams = (index: number, gramsText: string) => setIngredients((list) => list.map((i, at) => (at === index ? { ...i, gramsText } : i)));

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      const data = new FormData(form);
      const missing = ingredients.find((i) => gramsIn(i) === null);
      if (missing) {
        setError({ message: `Give the grams of ${missing.match.name}` });
        return;
      }
      const recipe = await api.createRecipe({
        name: text(data.get("name")),
        servings: numberOrUndefined(data, "servings") as number,
        cookedWeightG: numberOrUndefined(data, "cookedWeightG") ?? null,
        ingredients: ingredients.map((i) => ({ foodId: i.match.id, portion: { grams: gramsIn(i)! } })),
      });
      form.reset();
      setIngredients([]);
      setServingsText("1");
      saved(recipe);
    } catch (caught) {
      setError(formError(caught, RECIPE_LABELS));
    }
  };
  return (
    <form class="card" onSubmit={(event) => void save(event)} noValidate aria-label="New recipe">
      <h3>New recipe</h3>
      <div class="row">
        <Field id="recipe-name" label="Recipe name" error={error}><input id="recipe-name" name="name" required /></Field>
        <Field id="recipe-servings" label="Servings" error={error}>
          <input id="recipe-servings" name="servings" inputMode="decimal" value={servingsText} onInput={(event) => setServingsText(event.currentTarget.value)} />
        </Field>
        <Field id="recipe-cookedWeightG" label="Cooked weight (g)" error={error} hint="Leave empty: the ingredients' weight">
          <input id="recipe-cookedWeightG" name="cookedWeightG" inputMode="decimal" />
        </Field>
      </div>
      <IngredientSearch add={(match) => setIngredients((list) => [...list, { match, gramsText: "100" }])} />
      <ul class="list" aria-label="Ingredients">
        {ingredients.map((ingredient, index) => (
          <li key={`${ingredient.match.id}-${index}`}>
            <span>{ingredient.match.name}</span>
            <div class="actions">
              <label for={`ingredient-${index}`} class="visually-hidden">Grams of {ingredient.match.name}</label>
              <input id={`ingredient-${index}`} class="grams" inputMode="decimal" value={ingredient.gramsText} onInput={(event) => setGrams(index, event.currentTarget.value)} />
              <span aria-hidden="true">g</span>
              <button type="button" class="danger" onClick={() => setIngredients((list) => list.filter((_, at) => at !== index))} aria-label={`Remove ${ingredient.match.name}`}>Remove</button>
            </div>
          </li>
        ))}
      </ul>
      <p class="preview" data-testid="recipe-preview" aria-live="polite">
        {preview === null ? "Add ingredients with their grams to see the figures per serving." : `Per serving: ${figuresInWords(preview)}`}
      </p>
      <button type="submit">Save recipe</button>
      <FormProblem error={error} />
    </form>
  );
};

const MyRecipes = () => {
  const { value: recipes, error: loadError, reload } = useLoad(() => api.recipes(), []);
  const [savedNotice, setSavedNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = async (recipe: Recipe) => {
    if (!window.confirm(`Delete ${recipe.name}? Items already logged keep their numbers.`)) return;
    setProblem(null);
    await api.deleteRecipe(recipe.id).then(reload, (caught: unknown) => setProblem(formError(caught, {}).message));
  };
  return (
    <section aria-labelledby="my-recipes">
      <h2 id="my-recipes">Recipes</h2>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {problem && <p class="error" role="alert">{problem}</p>}
      <p class="muted" role="status">{savedNotice ?? ""}</p>
      {recipes && recipes.length === 0 && <p class="muted">No recipes yet: build one below.</p>}
      <ul class="list">
        {(recipes ?? []).map((recipe) => (
          <li key={recipe.id}>
            <div>
              <strong>{recipe.name}</strong> <span class="muted">{recipe.servings} servings of {recipe.servingG} g</span>{" "}
              <span>{figuresInWords(recipe.perServing)} per serving</span>
            </div>
            <div class="actions">
              <button type="button" class="danger" onClick={() => void remove(recipe)} aria-label={`Delete ${recipe.name}`}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
      <RecipeBuilder saved={(recipe) => { setSavedNotice(`Saved ${recipe.name}: ${recipe.perServing.kcal} kcal per serving. Find it in the Food search to log it.`); void reload(); }} />
    </section>
  );
};

export const OwnFoodsPage = () => (
  <>
    <h1>My foods and recipes</h1>
    <p><a href="/food">← Back to Food</a>. Your foods and recipes come first in the Food search, and are logged with a portion like any food.</p>
    <MyFoods />
    <MyRecipes />
  </>
);
