import type { UnitSystem } from "@fit/units";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import { FoodPage } from "./pages/food.tsx";
import { HistoryPage } from "./pages/history.tsx";
import { HomePage } from "./pages/home.tsx";
import { MeasurementsPage } from "./pages/measurements.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { SignInPage } from "./pages/sign-in.tsx";
import { TargetsPage } from "./pages/targets.tsx";
import { WeightPage } from "./pages/weight.tsx";
import { lazyPage } from "./lazy.tsx";
import { interceptLinks, navigate, useLocation } from "./router.ts";
import type { SessionView } from "./types.ts";
import { UndoBar } from "./ui.tsx";
import { UnitsContext } from "./units.tsx";
import "./style.css";

const WorkoutsPage = lazyPage(() => import("./pages/workouts.tsx").then((m) => m.WorkoutsPage));
const CoachPage = lazyPage(() => import("./pages/coach.tsx").then((m) => m.CoachPage));

const pages = [
  { path: "/", label: "Home", Page: HomePage },
  { path: "/weight", label: "Weight", Page: WeightPage },
  { path: "/food", label: "Food", Page: FoodPage },
  { path: "/workouts", label: "Workouts", Page: WorkoutsPage },
  { path: "/coach", label: "Coach", Page: CoachPage },
  { path: "/measurements", label: "Measurements", Page: MeasurementsPage },
  { path: "/targets", label: "Targets", Page: TargetsPage },
  { path: "/history", label: "History", Page: HistoryPage },
  { path: "/settings", label: "Settings", Page: SettingsPage },
] as const;

/** Moves focus (and so the next Tab) to the page's content; the router would otherwise take the click as a navigation. */
const skipToContent = (event: MouseEvent) => {
  event.preventDefault();
  document.getElementById("main")?.focus();
};

/** Screens reached from another screen rather than the menu; `/workouts/` takes the workout's id after it. */
const subpages = [
  { path: "/workouts/", Page: lazyPage(() => import("./pages/workout.tsx").then((m) => m.WorkoutPage)) },
  { path: "/coach/meal", Page: lazyPage(() => import("./pages/meal.tsx").then((m) => m.MealPage)) },
  { path: "/food/mine", Page: lazyPage(() => import("./pages/own-foods.tsx").then((m) => m.OwnFoodsPage)) },
  { path: "/settings/import", Page: lazyPage(() => import("./pages/imports.tsx").then((m) => m.ImportPage)) },
];
const subpageAt = (path: string) =>
  subpages.find((page) => (page.path.endsWith("/") ? path.startsWith(page.path) && path.length > page.path.length : path === page.path));

const App = () => {
  const location = useLocation();
  const [session, setSession] = useState<SessionView | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [units, setUnits] = useState<UnitSystem | undefined>(undefined);
  useEffect(() => {
    api.session().then(setSession, (error: Error) => setFailure(error.message));
  }, []);
  // Before any screen, so a number typed is never read in the wrong unit; without the profile, the API's own
  // units, which every label names.
  useEffect(() => {
    if (session) api.profile().then((profile) => setUnits(profile.units), () => setUnits("metric"));
  }, [session]);

  if (failure) return <main class="narrow"><h1>Fitness</h1><p class="error" role="alert">{failure}</p></main>;
  if (session === null) return <SignInPage />;
  if (session === undefined || units === undefined) return <main class="narrow" aria-busy="true"><p class="muted">Loading…</p></main>;

  const current = pages.find((page) => page.path === location.pathname) ?? subpageAt(location.pathname);
  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setSession(null);
    navigate("/");
  };
  return (
    <UnitsContext.Provider value={{ units, setUnits }}>
      <a class="skip" href="#main" onClick={skipToContent}>Skip to content</a>
      <header class="top">
        <nav aria-label="Main">
          {pages.map(({ path, label }) => (
            <a key={path} href={path} aria-current={path === location.pathname || (path !== "/" && location.pathname.startsWith(`${path}/`)) ? "page" : undefined}>{label}</a>
          ))}
        </nav>
        <div class="who">
          <span class="muted">{session.user.email}</span>
          <button type="button" class="link" onClick={() => void signOut()}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {current ? <current.Page key={location.pathname + location.search} search={location.searchParams} /> : (
          <><h1>Not found</h1><p>There is no page at {location.pathname}. <a href="/">Go home</a>.</p></>
        )}
      </main>
      <UndoBar />
    </UnitsContext.Provider>
  );
};

interceptLinks();
render(<App />, document.getElementById("app")!);
