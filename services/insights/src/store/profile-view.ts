import { defaultProfile, Profile } from "@fit/contracts";

export interface ProfileRow {
  heightCm: number | null;
  birthYear: number | null;
  sex: string | null;
  activityLevel: string | null;
  units: string;
  timeZone: string;
  firstDayOfWeek: string;
}

/** The stored row as the API shows it; the defaults for an account that never set one. */
export const profileView = (row: ProfileRow | null): Profile =>
  row
    ? Profile.parse({
        heightCm: row.heightCm, birthYear: row.birthYear, sex: row.sex, activityLevel: row.activityLevel,
        units: row.units, timeZone: row.timeZone, firstDayOfWeek: row.firstDayOfWeek,
      })
    : { ...defaultProfile };
