/**
 * The contrib modules a migration may CREATE EXTENSION: PGlite loads an extension's files at every start, not only
 * at the one that creates it. pg_trgm: nutrition's typo-tolerant food search (docs/decisions/0063-food-database.md).
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}
