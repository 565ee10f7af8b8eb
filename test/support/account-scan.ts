// Looks for an account everywhere the platform stores data: every table of every service's schema, every column
// that can hold an id or an email (uuid, text, varchar, json), found from information_schema so that a table added
// later is searched too.
import pg from "pg";

const serviceSchemas = ["identity", "body_metrics", "nutrition", "workouts", "coach", "insights", "imports"];

export interface Hit {
  table: string;
  column: string;
  rows: number;
}

/** Every (schema.table, column) holding `needle` (compared as text, case-insensitively), with its row count. */
export const findEverywhere = async (databaseUrl: string, needle: string): Promise<Hit[]> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT table_schema, table_name, column_name FROM information_schema.columns
       WHERE table_schema = ANY($1) AND data_type IN ('uuid', 'text', 'character varying', 'jsonb', 'json')
       ORDER BY table_schema, table_name, column_name`,
      [serviceSchemas],
    );
    if (new Set(columns.map((c) => c.table_schema)).size !== serviceSchemas.length) throw new Error("a service schema has no searchable column");
    const hits: Hit[] = [];
    for (const { table_schema: schema, table_name: table, column_name: column } of columns) {
      const name = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${name} WHERE strpos(lower(${pg.escapeIdentifier(column)}::text), lower($1)) > 0`,
        [needle],
      );
      if (rows[0] && rows[0].n > 0) hits.push({ table: `${schema}.${table}`, column, rows: rows[0].n });
    }
    return hits;
  } finally {
    await client.end();
  }
};
