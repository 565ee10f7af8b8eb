// The worker-thread reader: the same answers as the parser, its refusals as 400s, and a bound on files in flight.
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@fit/contracts";
import { parseActivityFile } from "@fit/activity-files";
import { createActivityFileReader, type ActivityFileReader } from "../../src/reader/activity-file-reader.ts";
import { makeGpx, straightTrack } from "../../../../packages/activity-files/test/support/activity-files.ts";

const start = new Date("2026-11-17T06:30:00Z");
const gpx = (points: number) => Buffer.from(makeGpx(straightTrack({ start, points, stepM: 10, stepS: 3, startEle: 100, hr: 150 }), { type: "running" }));
let reader: ActivityFileReader | undefined;
afterEach(async () => reader?.close());

const refusal = (attempt: Promise<unknown>) => attempt.then(() => null, (error: unknown) => error as AppError);

describe("activity-file reader", () => {
  it("reads on a worker thread what the parser reads, and turns the parser's refusal into a 400", async () => {
    reader = createActivityFileReader({ threads: 1, queue: 0 });
    const bytes = gpx(500);

    expect(await reader.read(bytes)).toEqual(parseActivityFile(bytes));
    const error = await refusal(reader.read(Buffer.from("<html></html>")));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "validation" });
  });

  it("refuses a file past the parser's caps with 413, and one whose reading runs out of the thread's heap or time with 413 too", async () => {
    reader = createActivityFileReader({ threads: 1, queue: 0 });
    const deep = Buffer.from(`<gpx>${"<trk>".repeat(200_000)}`);
    expect(await refusal(reader.read(Buffer.from(`<gpx><trk><trkseg>${'<trkpt lat="1" lon="2"/>'.repeat(250_001)}</trkseg></trk></gpx>`)))).toMatchObject({
      code: "payload_too_large",
      message: "the file is too large to read: more than 250000 track points",
    });
    expect(await refusal(reader.read(deep))).toMatchObject({ code: "validation" });
    await reader.close();
    // A heap too small for the file stands in for a file made to exhaust a real one.
    reader = createActivityFileReader({ threads: 1, queue: 0, heapMb: 32 });
    expect(await refusal(reader.read(gpx(240_000)))).toMatchObject({ code: "payload_too_large", message: "the file is too large or too complex to read" });
    await reader.close();
    reader = createActivityFileReader({ threads: 1, queue: 0, timeoutMs: 1 });
    expect(await refusal(reader.read(gpx(100_000)))).toMatchObject({ code: "payload_too_large" });
  }, 120_000);

  it("refuses with 429 and Retry-After a file beyond its threads and queue, and takes files again once they are read", async () => {
    reader = createActivityFileReader({ threads: 1, queue: 1 });
    const big = gpx(2000);
    const first = reader.read(big);
    const second = reader.read(big);

    const error = await refusal(reader.read(big));
    expect(error).toMatchObject({ code: "rate_limited", retryAfterS: 2 });
    await Promise.all([first, second]);
    await expect(reader.read(gpx(10))).resolves.toMatchObject([{ activityType: "run" }]);
  });
});
