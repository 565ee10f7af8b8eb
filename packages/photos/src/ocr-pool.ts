import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "@fit/contracts";
import type { Worker } from "tesseract.js";

/** A line of text as read, with the reader's confidence in it (0–100). */
export interface ReadLine {
  text: string;
  confidence: number;
}
export interface ReadText {
  text: string;
  confidence: number;
  lines: ReadLine[];
}

const require = createRequire(import.meta.url);
// The English model ships in a registry package: nothing is downloaded at run time. "best_int" reads digits more
// surely than the fast model at ~the same speed on a screen's few lines.
// Found with the first photo, like tesseract.js itself: a service that never reads one starts without either.
const langPath = () => path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");
const READ_TIMEOUT_MS = 30_000;
/** A reader kept with no photo to read is ended after this; its model and heap hold ~100 MB. */
const IDLE_MS = 60_000;

/**
 * Reads text on tesseract.js's worker threads, like the activity-file readers (services/workouts/src/reader): at
 * most `threads` photos at once, `queue` more waiting, past both a 429 with Retry-After; a photo read past the time
 * is a 422 and its thread is ended, so the event loop of the service never runs the recognition itself.
 */
export const createOcrPool = ({ threads, queue, timeoutMs = READ_TIMEOUT_MS }: { threads: number; queue: number; timeoutMs?: number }) => {
  const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  const waiting: { resolve: (worker: Worker) => void; reject: (error: unknown) => void }[] = [];
  let started = 0;
  let reading = 0;

  const start = async () => {
    started++;
    try {
      // Loaded with the first photo: a service that never reads one never loads it.
      const { createWorker } = await import("tesseract.js");
      const worker = await createWorker("eng", 1, { langPath: langPath(), gzip: true, cachePath: path.join(tmpdir(), "fit-ocr") });
      // The prepared image carries no resolution; text of its size reads as 300 dpi.
      await worker.setParameters({ user_defined_dpi: "300" });
      return worker;
    } catch (error) {
      started--;
      throw error;
    }
  };
  const acquire = async (): Promise<Worker> => {
    const kept = idle.pop();
    if (kept) {
      clearTimeout(kept.timer);
      return kept.worker;
    }
    return started < threads ? start() : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const end = (worker: Worker) => {
    started--;
    void worker.terminate().catch(() => undefined);
  };
  const release = (worker: Worker) => {
    const next = waiting.shift();
    if (next) return next.resolve(worker);
    const timer = setTimeout(() => {
      idle.splice(idle.findIndex((entry) => entry.worker === worker), 1);
      end(worker);
    }, IDLE_MS);
    timer.unref();
    idle.push({ worker, timer });
  };

  return {
    read: async (png: Buffer): Promise<ReadText> => {
      if (reading >= threads + queue) throw new AppError("rate_limited", "too many photos are being read, retry shortly", undefined, 5);
      reading++;
      try {
        const worker = await acquire();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new AppError("unprocessable", "the photo took too long to read")), timeoutMs);
        });
        try {
          const { data } = await Promise.race([worker.recognize(png, {}, { text: true, blocks: true }), late]);
          release(worker);
          const lines = (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((p) => p.lines.map((l) => ({ text: l.text.trim(), confidence: l.confidence }))));
          return { text: data.text, confidence: data.confidence, lines: lines.filter((line) => line.text !== "") };
        } catch (error) {
          // A thread that failed or ran late may be mid-recognition: it is ended, not reused.
          end(worker);
          const next = waiting.shift();
          if (next) void start().then(next.resolve, next.reject);
          throw error;
        } finally {
          clearTimeout(timer);
        }
      } finally {
        reading--;
      }
    },
    close: async () => {
      for (const { worker, timer } of idle.splice(0)) {
        clearTimeout(timer);
        await worker.terminate();
      }
    },
  };
};

export type OcrPool = ReturnType<typeof createOcrPool>;
