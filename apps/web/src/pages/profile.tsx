import { lengthFieldText, lengthUnitName, type UnitSystem } from "@fit/units";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { useLoad } from "../load.ts";
import type { Profile, ProfileInput } from "../types.ts";
import { cmOrUndefined, Field, FormProblem, formError, numberOrUndefined, text, type FormError } from "../ui.tsx";
import { useUnits } from "../units.tsx";

const UNITS: readonly [UnitSystem, string][] = [
  ["metric", "Metric: kg and cm"],
  ["imperial", "Imperial: lb and in"],
  ["imperial_stones", "Imperial with stones: st and lb, in"],
];
const SEXES = [["", "Not said"], ["female", "Female"], ["male", "Male"]] as const;
const ACTIVITY = [
  ["", "Not said"], ["sedentary", "Sedentary"], ["light", "Lightly active"], ["moderate", "Moderately active"],
  ["active", "Active"], ["very_active", "Very active"],
] as const;
const FIRST_DAYS = [["monday", "Monday"], ["sunday", "Sunday"], ["saturday", "Saturday"]] as const;
const LABELS = {
  heightCm: "Height", birthYear: "Birth year", sex: "Sex", activityLevel: "Activity level", units: "Units",
  timeZone: "Time zone", firstDayOfWeek: "First day of the week",
} as const;

/** The browser's IANA zone: what a profile still on the default UTC is offered. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const Select = ({ id, name, options, value }: { id: string; name: string; options: readonly (readonly [string, string])[]; value: string }) => (
  <select id={id} name={name} defaultValue={value}>
    {options.map(([word, label]) => <option key={word} value={word}>{label}</option>)}
  </select>
);

const ProfileForm = ({ profile }: { profile: Profile }) => {
  const { setUnits } = useUnits();
  const [error, setError] = useState<FormError | null>(null);
  const [done, setDone] = useState(false);
  // The height field follows the units chosen in this form, before they are saved.
  const [units, setFormUnits] = useState<UnitSystem>(profile.units);
  const shownHeight = profile.heightCm === null ? "" : lengthFieldText(profile.heightCm, units);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const word = (name: string) => text(data.get(name)) || null;
    setError(null);
    setDone(false);
    try {
      // A height left as shown keeps its stored centimetres, as a target weight does.
      const heightCm = text(data.get("heightCm")) === shownHeight ? profile.heightCm : (cmOrUndefined(data, "heightCm", units) ?? null);
      const saved = await api.putProfile({
        heightCm,
        birthYear: numberOrUndefined(data, "birthYear") ?? null,
        sex: word("sex") as ProfileInput["sex"],
        activityLevel: word("activityLevel") as ProfileInput["activityLevel"],
        units,
        timeZone: text(data.get("timeZone")),
        firstDayOfWeek: text(data.get("firstDayOfWeek")) as Profile["firstDayOfWeek"],
      });
      setUnits(saved.units);
      setDone(true);
    } catch (caught) {
      setError(formError(caught, LABELS, units));
    }
  };
  const zone = browserZone();
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <div class="row">
        <Field id="profile-units" label="Units" error={error} hint="How weights and lengths are shown and typed; the server keeps kg and cm">
          <select id="profile-units" name="units" value={units} onChange={(event) => setFormUnits(event.currentTarget.value as UnitSystem)}>
            {UNITS.map(([word, label]) => <option key={word} value={word}>{label}</option>)}
          </select>
        </Field>
        <Field id="profile-heightCm" label={`Height (${lengthUnitName(units)})`} error={error} hint={units === "metric" ? undefined : "Or 5 ft 11 in"}>
          <input id="profile-heightCm" key={units} name="heightCm" inputMode="decimal" defaultValue={shownHeight} />
        </Field>
        <Field id="profile-birthYear" label="Birth year" error={error}>
          <input id="profile-birthYear" name="birthYear" inputMode="numeric" defaultValue={profile.birthYear?.toString() ?? ""} />
        </Field>
      </div>
      <div class="row">
        <Field id="profile-sex" label="Sex" error={error} hint="Only for the starting energy estimate">
          <Select id="profile-sex" name="sex" options={SEXES} value={profile.sex ?? ""} />
        </Field>
        <Field id="profile-activityLevel" label="Activity level" error={error} hint="Outside logged workouts">
          <Select id="profile-activityLevel" name="activityLevel" options={ACTIVITY} value={profile.activityLevel ?? ""} />
        </Field>
      </div>
      <div class="row">
        <Field id="profile-timeZone" label="Time zone" error={error} hint={`This browser: ${zone}`}>
          <input id="profile-timeZone" name="timeZone" defaultValue={profile.timeZone === "UTC" ? zone : profile.timeZone} />
        </Field>
        <Field id="profile-firstDayOfWeek" label="First day of the week" error={error}>
          <Select id="profile-firstDayOfWeek" name="firstDayOfWeek" options={FIRST_DAYS} value={profile.firstDayOfWeek} />
        </Field>
      </div>
      <button type="submit">Save profile</button>
      {done && <span role="status" class="ok">Saved.</span>}
      <FormProblem error={error} />
    </form>
  );
};

/** Settings → Profile: who the numbers are about, and the units they are shown in. */
export const ProfileSection = () => {
  const { value, error } = useLoad(() => api.profile(), []);
  return (
    <section class="card" aria-labelledby="settings-profile">
      <h2 id="settings-profile">Profile</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {value && <ProfileForm profile={value} />}
    </section>
  );
};
