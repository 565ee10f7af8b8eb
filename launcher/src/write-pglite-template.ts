// Run by the launcher's build: writes the shared PGlite's template (embedded-databases.ts), so a first
// `pnpm start` copies one folder instead of running initdb, every service's migrations and its data load.
import { servicePrisma, writeSharedPgliteTemplate } from "@fit/db";
import { embeddedDatabases, sharedPgliteTemplate } from "./embedded-databases.ts";

const applied = await writeSharedPgliteTemplate(
  embeddedDatabases.map(({ schema, prismaDir, loadData }) => ({ schema, loadData, ...servicePrisma(prismaDir) })),
  sharedPgliteTemplate,
);
const counts = Object.entries(applied).map(([schema, names]) => `${schema} ${names.length}`);
console.log(`wrote ${sharedPgliteTemplate} (migrations: ${counts.join(", ")})`);
