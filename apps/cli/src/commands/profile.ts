import { ActivityLevel, FirstDayOfWeek, operations, Sex, Units, type Profile } from "@fit/contracts";
import { cmOf, formatLength, type LengthUnit, type Typed } from "@fit/units";
import type { Command } from "commander";
import { number, oneOf } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { label } from "../labels.ts";
import { orDash, printJson, printRecord } from "../output.ts";
import { inUnits, length } from "../units.ts";

interface SetOptions {
  height?: Typed<LengthUnit>;
  birthYear?: number;
  sex?: NonNullable<Profile["sex"]>;
  activity?: NonNullable<Profile["activityLevel"]>;
  units?: Profile["units"];
  tz?: string;
  firstDay?: Profile["firstDayOfWeek"];
}

const printProfile = (profile: Profile) =>
  printRecord([
    ["height", orDash(profile.heightCm === null ? null : formatLength(profile.heightCm, profile.units))],
    ["birth year", orDash(profile.birthYear)],
    ["sex", orDash(profile.sex)],
    ["activity level", orDash(profile.activityLevel && label(profile.activityLevel))],
    ["units", label(profile.units)],
    ["time zone", profile.timeZone],
    ["first day of week", profile.firstDayOfWeek],
  ]);

export const profileCommands = (program: Command): void => {
  const profile = program.command("profile").description("who you are: height, units, time zone…");

  profile
    .command("show")
    .description("your profile")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const current = await call(await context.connection(), operations.getProfile);
      if (context.json) return printJson(current);
      printProfile(current);
    });

  profile
    .command("set")
    .description("change the fields given; the others keep their values")
    .option("--height <length>", "height, in the profile's units or with its own (180cm, 71in, 5ft 11in)", length)
    .option("--birth-year <year>", "year of birth", number)
    .option("--sex <sex>", `${Sex.options.join(" or ")} (only for the starting energy estimate)`, oneOf(Sex.options))
    .option("--activity <level>", `activity outside workouts: ${ActivityLevel.options.map(label).join(", ")}`, oneOf(ActivityLevel.options))
    .option("--units <units>", `how fit and the web app show and read weights and lengths: ${Units.options.map(label).join(", ")}`, oneOf(Units.options))
    .option("--tz <zone>", "time zone, IANA (Europe/London)")
    .option("--first-day <day>", `first day of the week: ${FirstDayOfWeek.options.join(", ")}`, oneOf(FirstDayOfWeek.options))
    .action(async (options: SetOptions, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      // PUT replaces the whole profile, so the current one is read first: `--tz` alone must not reset the units.
      const current = await call(connection, operations.getProfile);
      // A bare height is read in the units being set, when they are.
      const units = options.units ?? current.units;
      const body = {
        heightCm: options.height === undefined ? current.heightCm : cmOf(options.height, units),
        birthYear: options.birthYear ?? current.birthYear,
        sex: options.sex ?? current.sex,
        activityLevel: options.activity ?? current.activityLevel,
        units,
        timeZone: options.tz ?? current.timeZone,
        firstDayOfWeek: options.firstDay ?? current.firstDayOfWeek,
      };
      const saved = await inUnits(units, call(connection, operations.putProfile, { body }));
      if (context.json) return printJson(saved);
      printProfile(saved);
    });
};
