// The entry of an activity-file reading thread (activity-file-reader.ts): the pure parser, with its refusal
// turned into a value, since an error's class does not survive the trip between threads.
import { ActivityFileError, ActivityFileTooLarge, parseActivityFile, type ImportedActivity } from "@fit/activity-files";

export type ReadOutcome = { ok: true; activities: ImportedActivity[] } | { ok: false; message: string; tooLarge: boolean };

export default function readActivityFile(bytes: Uint8Array): ReadOutcome {
  try {
    return { ok: true, activities: parseActivityFile(bytes) };
  } catch (error) {
    if (error instanceof ActivityFileError) return { ok: false, message: error.message, tooLarge: error instanceof ActivityFileTooLarge };
    throw error;
  }
}
