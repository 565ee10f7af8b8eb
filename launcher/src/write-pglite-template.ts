// Run by the launcher's build: writes the shared PGlite's template (embedded-databases.ts), so a first
// `pnpm start` copies one folder instead of running initdb and every service's migrations.
import path from "node:path";
import { writeSharedPgliteTemplate } from "@fit/db";
import { embeddedDatabases, sharedPgliteTemplate } from "./embedded-databases.ts";

const applied = await writeSharedPgliteTemplate(
  embeddedDatabases.map(({ schema, prismaDir }) => ({
    schema,
    schemaPath: path.join(prismaDir, "schema.prisma"),
    migrationsDir: path.join(prismaDir, "migrations"),
  })),
  sharedPgliteTemplate,
);
const counts = Object.entries(applied).map(([schema, names]) => `${schema} ${names.length}`);
console.log(`wrote ${sharedPgliteTemplate} (migrations: ${counts.join(", ")})`);
