// `fit import` of a CSV or an export through the imports API, as the compiled binary against the whole platform:
// the file streamed up, the import followed to its end (plain lines without a terminal), its summary or --json
// record, exit 1 when it failed, `fit import list`, `show` and `undo`.
import { mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPlatform } from "./support/cli.ts";
import type { client } from "./support/http.ts";

const platform = cliPlatform("imports");

const { person } = platform;

const file = async (name: string, text: string) => {
  const path = join(await mkdtemp(join(platform.home, "files-")), name);
  await writeFile(path, text);
  return path;
};

/** The CLI's own layout from before imports ran in the background: rows 2–4 are weigh-ins, row 5 is refused. */
const SCALE_CSV = "time,weight_kg,body_fat_pct,note\n2026-11-20T07:00:00Z,82.0,19,\n2026-11-21T07:00:00Z,81.8,,\"light, after run\"\n" +
  "2026-11-22T07:00:00Z,81.5,18.5,\n2026-11-23T07:00:00Z,900,,\n";

const weights = async (api: ReturnType<typeof client>) =>
  ((await api.get("/api/weight?limit=100")).body.items as { weightKg: number; ts: number }[]).map((w) => w.weightKg);

describe("fit import <csv>", () => {
  it("uploads the file, follows it with plain lines, prints the record with --json; again it creates nothing; undo removes its rows", async () => {
    const { fit, api } = await person();
    const csv = await file("scale.csv", SCALE_CSV);
    const first = await fit("import", csv, "--json");
    expect(first.code).toBe(0);
    // No terminal: a line each time the state changes, ending with the finished counts.
    expect(first.stderr).toMatch(/^uploading: /m);
    expect(first.stderr).toMatch(/^done: 4 read, 3 created, 0 skipped, 1 refused\n$/m);
    const record = JSON.parse(first.stdout);
    expect(record).toMatchObject({
      state: "done", fileName: "scale.csv", kind: "weigh-ins", counts: { read: 4, created: 3, skipped: 0, refused: 1 },
      refusals: [{ line: 5, reason: "weightKg must be between 9 and 320 kg" }], progress: 1, error: null,
    });
    expect(await weights(api)).toEqual([81.5, 81.8, 82]);

    const again = await fit("import", csv, "--no-progress");
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(again.stdout).toMatch(/│ state\s+│ done\s+│/);
    expect(again.stdout).toMatch(/│ rows\s+│ 4 read, 0 created, 3 skipped, 1 refused\s+│/);
    expect(again.stdout).toMatch(/│ 5\s+│ weightKg must be between 9 and 320 kg\s+│/);
    expect(await weights(api)).toEqual([81.5, 81.8, 82]);

    const list = await fit("import", "list", "--json");
    expect(JSON.parse(list.stdout).map((i: { counts: { created: number } }) => i.counts.created)).toEqual([0, 3]);
    const table = await fit("import", "list");
    expect(table.stdout).toContain(record.id);

    const undone = await fit("import", "undo", record.id);
    expect(undone.code).toBe(0);
    expect(undone.stdout).toBe(`Import ${record.id}: undone: 4 read, 3 created, 0 skipped, 1 refused\n`);
    expect(await weights(api)).toEqual([]);
    expect((await api.get(`/api/imports/${record.id}`)).body.state).toBe("undone");
  });

  it("reads times without a zone in the profile's zone and bare weights in its unit, unless --tz and --unit say otherwise", async () => {
    const { fit, api } = await person();
    expect((await api.put("/api/profile", { units: "imperial", timeZone: "America/New_York" })).status).toBe(200);
    // Fitbit's layout names no unit.
    const fitbit = await file("fitbit.csv", "Date,Weight,BMI,Fat\n2026-11-20 07:00,180,24.1,0\n");
    expect((await fit("import", fitbit, "--no-progress")).code).toBe(0);
    const stored = (await api.get("/api/weight")).body.items;
    expect(stored).toEqual([expect.objectContaining({ weightKg: 81.65, ts: Date.UTC(2026, 10, 20, 12) })]);

    const given = await file("given.csv", "Date,Weight,BMI,Fat\n2026-11-21 07:00,80,24.1,0\n");
    expect((await fit("import", given, "--tz", "UTC", "--unit", "kg", "--no-progress")).code).toBe(0);
    expect((await api.get("/api/weight")).body.items[0]).toMatchObject({ weightKg: 80, ts: Date.UTC(2026, 10, 21, 7) });
  });

  it("with --no-wait prints the id at once; `fit import show` follows it", async () => {
    const { fit, json } = await person();
    const csv = await file("scale.csv", SCALE_CSV);
    const queued = await fit("import", csv, "--no-wait", "--no-progress");
    expect(queued.code).toBe(0);
    const id = /^Import ([0-9a-f-]{36}) queued; follow it with: fit import show \1\n$/.exec(queued.stdout)?.[1];
    expect(id).toBeDefined();
    await expect.poll(async () => (await json("import", "show", id!)).state, { timeout: 20_000 }).toBe("done");
    expect((await fit("import", "show", id!)).stdout).toMatch(/│ file\s+│ scale\.csv\s+│/);
  });
});

describe("fit import failures", () => {
  it("exits 1 with the summary's error when the import fails, and with the API's message when the file is refused", async () => {
    const { fit } = await person();
    // A record longer than the 64 KiB the import reads fails it after upload.
    const long = await file("long.csv", `Date,"Weight (kg)"\n2026-11-20 07:00,80\n2026-11-21 07:00,"${"x".repeat(70_000)}"\n`);
    const failed = await fit("import", long, "--json", "--no-progress");
    expect(failed.code).toBe(1);
    const record = JSON.parse(failed.stdout);
    expect(record).toMatchObject({ state: "failed", error: expect.any(String) });
    const plain = await fit("import", long, "--no-progress");
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/│ state\s+│ failed\s+│/);
    expect(plain.stdout).toMatch(/│ error\s+│ /);

    const notes = await file("notes.txt", "dear diary\nran today\n");
    const refused = await fit("import", notes);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^uploading: [^\n]*\nfit: the file's header is not one of an export this import reads/);
    expect(refused.stdout).toBe("");
  });

  it("refuses before sending: a missing file, an export with other files, an unknown unit (exit 2); undo of an unknown id is exit 4", async () => {
    const { fit, api } = await person();
    const missing = await fit("import", join(platform.home, "nowhere.csv"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nowhere.csv: ENOENT");
    const csv = await file("scale.csv", SCALE_CSV);
    const mixed = await fit("import", csv, join(platform.home, "run.gpx"));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("an export or CSV is imported on its own");
    expect((await fit("import", csv, "--unit", "stone")).code).toBe(2);
    expect((await api.get("/api/imports")).body.items).toEqual([]);
    const unknown = await fit("import", "undo", "00000000-0000-4000-8000-000000000000");
    expect(unknown.code).toBe(4);
  });
});
