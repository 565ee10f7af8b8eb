// A service's work on a thread of its own with a database of its own (threads.ts says why a thread).
import { internalsOf, type Database, type ThreadDatabase } from "./database.ts";
import { openDatabase } from "./open.ts";
import { runOnThread } from "./threads.ts";

/**
 * Runs `task` on a thread of its own with a database of its own on the same PostgreSQL schema. `entry` is a module
 * whose default export is `threadTask(task)`, named by a URL relative to the caller's `import.meta.url`, so that the
 * build compiles it beside the bundle (scripts/build.mjs). On PGlite `task` runs here: its one session cannot be
 * reached from another thread.
 */
export const onOwnThread = <R>(db: Database, entry: string, task: (db: Database) => Promise<R>): Promise<R> => {
  const where = internalsOf(db).threadDatabase;
  return where ? runOnThread<ThreadDatabase, R>(entry, where) : task(db);
};

/** A thread entry's default export for `onOwnThread`: `task` on a database opened for it and closed after. */
export const threadTask = <R>(task: (db: Database) => Promise<R>) => async (where: ThreadDatabase): Promise<R> => {
  const db = await openDatabase({ ...where, dataDir: "", poolSize: 1 });
  try {
    return await task(db);
  } finally {
    await db.close();
  }
};
