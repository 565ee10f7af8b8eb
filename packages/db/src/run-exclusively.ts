import { internalsOf, type Database } from "./database.ts";

/**
 * Runs `fn` unless it already runs under `name` against the same data, in this process or any replica:
 * resolves `{ value }`, or null at once when another holder has it (for periodic work one replica does per
 * turn, not a queue). A PostgreSQL advisory lock, or on PGlite a name held in this process.
 */
export const runExclusively = <T>(db: Database, name: string, fn: () => Promise<T>) => internalsOf(db).exclusively(name, fn);
