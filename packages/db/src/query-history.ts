import { clearLogs } from "@prisma/debug";

/**
 * Drops the arguments Prisma keeps of the last 100 queries of its PostgreSQL driver adapter. `@prisma/debug`
 * records every debug call's arguments for its error-report links, DEBUG set or not, so a statement with a large
 * parameter stays in the heap until 100 later Prisma queries push it out, which a service whose hot paths run on the
 * driver (`db.query`) may never make: the food database's load, which sends 8 MB of JSON, calls this after each of its
 * statements (docs/performance.md, "Where a service's RSS goes"). The PGlite adapter logs through another copy of
 * the package, left as it is: the embedded process's food database comes in the template, not through a load at start.
 */
export const forgetQueryArguments = () => clearLogs();
