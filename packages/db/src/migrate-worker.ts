// The migration thread's task (postgres-migrations.ts): applies a service's pending migrations and answers with
// their names.
import { applyMigrations } from "./engine.ts";
import { postgresMigrationSession, type MigrationThreadData } from "./postgres-migrations.ts";

export default ({ connection, schema, service }: MigrationThreadData) =>
  postgresMigrationSession(connection, schema, (factory) => applyMigrations(factory, service));
