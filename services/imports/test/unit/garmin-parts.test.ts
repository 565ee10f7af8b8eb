import { describe, expect, it } from "vitest";
import { readDirectory } from "../../src/domain/archive.ts";
import { entryAt, partAfter, progressOf, type GarminFormat } from "../../src/domain/file-kind.ts";
import { zipOf } from "../support/archive.ts";

const UPLOADS = "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-";
const rangeOf = (zip: Buffer) => async function* range(start: number, end: number) {
  yield zip.subarray(start, end);
};

describe("Garmin Connect's parts of uploaded files", () => {
  it("are every zip under DI-Connect-Uploaded-Files, in the order of their numbers, each with its inflated size", async () => {
    const part = (n: number) => ({ name: `${UPLOADS}_Part${n}.zip`, data: Buffer.alloc(100 * n, 1), compress: false });
    const zip = await zipOf([part(10), part(2), { name: "DI_CONNECT/DI-Connect-User/user_profile.json", data: "{}" }, part(1)]);
    const format = await readDirectory(rangeOf(zip), zip.length);
    expect(format).toEqual({
      layout: "garmin",
      parts: [1, 2, 10].map((n) => ({ name: `${UPLOADS}_Part${n}.zip`, bytes: 100 * n })),
      declared: 1300 + 2,
    });
  });

  it("are read one after another, and progress runs over all of them", () => {
    const format: GarminFormat = { layout: "garmin", parts: [{ name: "a.zip", bytes: 300 }, { name: "b.zip", bytes: 100 }], declared: 400 };
    expect([entryAt(format, 0), entryAt(format, 1), entryAt(format, 2)]).toEqual([format.parts[0], format.parts[1], undefined]);
    expect([partAfter(format, 0), partAfter(format, 1)]).toEqual([1, undefined]);
    expect([progressOf(format, 999, 0, 0), progressOf(format, 999, 0, 150), progressOf(format, 999, 1, 0), progressOf(format, 999, 1, 100)])
      .toEqual([0, 0.375, 0.75, 1]);
    // An export of weigh-ins only has nothing to inflate; other exports read their one entry.
    expect(progressOf({ layout: "garmin", parts: [], declared: 10 }, 999, 0, 0)).toBe(1);
    expect(progressOf({ layout: "strava", entry: { name: "activities.csv", bytes: 200 } }, 999, 0, 50)).toBe(0.25);
    expect(partAfter({ layout: "strava", entry: { name: "activities.csv", bytes: 200 } }, 0)).toBeUndefined();
  });
});
