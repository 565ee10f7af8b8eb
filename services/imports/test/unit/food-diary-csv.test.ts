import { describe, expect, it } from "vitest";
import { csvRecords } from "../../src/domain/csv.ts";
import { foodItemOf, recogniseFoodDiary } from "../../src/domain/food-diary-csv.ts";

const readAll = async (text: string) => {
  const bytes = Buffer.from(text);
  const recognised = recogniseFoodDiary(bytes);
  if (!recognised) throw new Error("not recognised");
  const rows = [];
  async function* rest() {
    yield bytes.subarray(recognised!.offset);
  }
  for await (const record of csvRecords(rest(), recognised.offset, recognised.line)) rows.push({ line: record.line, ...foodItemOf(record, recognised.format) });
  return { format: recognised.format, rows };
};

const MFP_HEADER = "Date,Meal,Time,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,Cholesterol," +
  "Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,Vitamin C,Calcium,Iron,Note\n";

const CRONOMETER_SERVINGS = "Day,Time,Group,Food Name,Amount,Energy (kcal),Alcohol (g),Caffeine (mg),Water (g),Carbs (g),Fiber (g)," +
  "Starch (g),Sugars (g),Fat (g),Cholesterol (mg),Protein (g),Sodium (mg),Category\n";

describe("food diary exports", () => {
  it("reads MyFitnessPal's nutrition export as one item per meal per day, with its macros", async () => {
    const { format, rows } = await readAll(
      MFP_HEADER +
        "2026-03-01,Breakfast,8:05 AM,412,14.2,5,2,4,0,210,380,300,48.5,6,12,22.5,0,0,0,0,\n" +
        '2026-03-01,Snacks,3:00 PM,180.5,9,2,1,5,0,0,90,200,18,3,9,6,0,0,0,0,"apple, peanut butter"\n' +
        "2026-03-01,Meal 5,,95,0,0,0,0,0,0,0,0,24,2,19,0.5,0,0,0,0,\n",
    );
    expect(format).toMatchObject({ layout: "myfitnesspal", rows: "meals" });
    expect(rows[0]).toEqual({
      line: 2,
      item: {
        externalId: expect.stringMatching(/^myfitnesspal-meals:2026-03-01:[\w-]{22}$/), date: "2026-03-01", name: "Breakfast (MyFitnessPal totals)",
        kcal: 412, proteinG: 22.5, carbsG: 48.5, fatG: 14.2, fiberG: 6, meal: "breakfast", quantity: null, unit: null,
      },
    });
    expect(rows[1]).toMatchObject({ item: { meal: "snack", kcal: 180.5, name: "Snacks (MyFitnessPal totals)" } });
    expect(rows[2]).toMatchObject({ item: { meal: null, name: "Meal 5 (MyFitnessPal totals)" } });
    const ids = rows.map((row) => ("item" in row ? row.item.externalId : ""));
    expect(new Set(ids).size).toBe(3);
  });

  it("reads Cronometer's servings as one item per food with its amount, and its daily summary as one item per day in kJ or kcal", async () => {
    const servings = await readAll(
      CRONOMETER_SERVINGS +
        '2026-03-02,07:30,Breakfast,"Oats, Rolled, Dry",40.00 g,151.6,0,0,3.9,27.1,4,20,0.4,2.6,0,5.3,2.4,Breakfast Cereals\n' +
        "2026-03-02,,Uncategorized,Coffee,1.00 cup,2.4,0,95,235,0,0,0,0,0.1,0,0.3,5,Beverages\n",
    );
    expect(servings.format).toMatchObject({ layout: "cronometer", rows: "foods" });
    expect(servings.rows[0]).toMatchObject({
      item: { date: "2026-03-02", name: "Oats, Rolled, Dry", kcal: 151.6, proteinG: 5.3, carbsG: 27.1, fatG: 2.6, fiberG: 4, meal: "breakfast", quantity: 40, unit: "g" },
    });
    expect(servings.rows[1]).toMatchObject({ item: { meal: null, quantity: 1, unit: "cup" } });

    const daily = await readAll("Date,Energy (kJ),Protein (g),Carbs (g),Fat (g),Fiber (g),Completed\n2026-03-03,8368,120,250,70,30,true\n");
    expect(daily.format).toMatchObject({ layout: "cronometer", rows: "days" });
    expect(daily.rows[0]).toEqual({
      line: 2,
      item: {
        externalId: "cronometer-days:2026-03-03", date: "2026-03-03", name: "Day total (Cronometer)", kcal: 2000, proteinG: 120,
        carbsG: 250, fatG: 70, fiberG: 30, meal: null, quantity: null, unit: null,
      },
    });
  });

  it("gives the same entry the same id in another export, and different entries different ids", async () => {
    const row = '2026-03-02,07:30,Breakfast,"Egg, Whole, Cooked",2.00 large,155,0,0,0,1.1,0,0,1.1,10.6,0,12.6,0,Eggs\n';
    const first = await readAll(CRONOMETER_SERVINGS + row);
    const later = await readAll(CRONOMETER_SERVINGS + "2026-03-01,08:00,Lunch,Rice,158 g,205,0,0,0,44,0.6,0,0,0.4,0,4.3,0,Grains\n" + row);
    const idOf = (outcome: (typeof first.rows)[number]) => ("item" in outcome ? outcome.item.externalId : outcome.refused);
    expect(idOf(later.rows[1]!)).toBe(idOf(first.rows[0]!));
    expect(idOf(later.rows[0]!)).not.toBe(idOf(first.rows[0]!));
  });

  it("refuses rows it cannot read, each with its reason, and reads the rest", async () => {
    const { rows } = await readAll(
      MFP_HEADER +
        "yesterday,Lunch,,500,10,0,0,0,0,0,0,0,50,5,5,30,0,0,0,0,\n" +
        "2026-03-01,Lunch,,,10,0,0,0,0,0,0,0,50,5,5,30,0,0,0,0,\n" +
        "2026-03-01,Dinner,,25000,10,0,0,0,0,0,0,0,50,5,5,30,0,0,0,0,\n" +
        "2099-01-01,Dinner,,500,10,0,0,0,0,0,0,0,50,5,5,30,0,0,0,0,\n" +
        "2026-03-01,Dinner,,640,21,0,0,0,0,0,0,0,70,8,5,41,0,0,0,0,\n",
    );
    expect(rows.map((row) => ("refused" in row ? row.refused : "ok"))).toEqual([
      '"yesterday" is not a date this import reads',
      "no energy",
      expect.stringMatching(/^kcal must be between 0 and 10000/),
      expect.stringMatching(/^date /),
      "ok",
    ]);
  });

  it("does not take a weigh-in file, or a file without energy and protein, for a food diary", () => {
    expect(recogniseFoodDiary(Buffer.from('Date,"Weight (kg)","Fat mass (kg)"\n2026-03-01,80,16\n'))).toBeUndefined();
    expect(recogniseFoodDiary(Buffer.from("Date,Calories\n2026-03-01,2000\n"))).toBeUndefined();
    expect(recogniseFoodDiary(Buffer.from("Date,Calories,Protein (g)\n2026-03-01,2000,100\n"))).toBeUndefined();
  });
});
