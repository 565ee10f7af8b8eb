// Migration commands for a service folder, working offline through the WASM schema engine:
//   node --import tsx packages/db/src/cli.ts new --name <name> --service services/<name>
//   node --import tsx packages/db/src/cli.ts deploy --service services/<name> [--schema <pg schema>] [--data-dir <dir>]
//   node --import tsx packages/db/src/cli.ts template --service services/<name>
import path from "node:path";
import { parseArgs } from "node:util";
import { loadCliConfig } from "./cli-config.ts";
import { migrate, servicePrisma } from "./migrate.ts";
import { newMigration } from "./new-migration.ts";
import { openDatabase } from "./open.ts";
import { pgliteTemplatePath, writePgliteTemplate } from "./template.ts";

const usage = `usage:
  node --import tsx packages/db/src/cli.ts new --service <service folder> --name <migration name>
      writes <service>/prisma/migrations/<yyyyMMddHHmmss>_<name>/ for what schema.prisma adds to the migrations
  node --import tsx packages/db/src/cli.ts deploy --service <service folder> [--schema <pg schema>] [--data-dir <dir>]
      applies pending migrations to DATABASE_URL in <pg schema> (default: folder name with - as _),
      or, with DATABASE_URL unset, to the PGlite folder <dir> (default: ./data/<service>)
  node --import tsx packages/db/src/cli.ts template --service <service folder>
      writes <service>/dist/pglite-template/: a PGlite data folder with every migration applied, which the
      embedded mode copies into a new data folder (the service's build runs it)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { service: { type: "string" }, name: { type: "string" }, schema: { type: "string" }, "data-dir": { type: "string" } },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { positionals, values } = parsed;
  const [command, ...extra] = positionals;
  if (command !== "new" && command !== "deploy" && command !== "template") fail(command ? `unknown command "${command}"` : "no command given");
  if (extra.length) fail(`unexpected arguments: ${extra.join(" ")}`);
  if (!values.service) fail("--service is required");
  const serviceDir = path.resolve(values.service);
  const service = path.basename(serviceDir);
  const prisma = servicePrisma(path.join(serviceDir, "prisma"));

  if (command === "new") {
    if (!values.name) fail("new needs --name");
    const folder = await newMigration(prisma, values.name);
    console.log(folder ? `wrote ${path.relative(process.cwd(), folder)}` : "no changes");
  } else if (command === "template") {
    const dir = pgliteTemplatePath(path.dirname(prisma.schemaPath));
    const applied = await writePgliteTemplate(prisma, dir);
    console.log(`wrote ${path.relative(process.cwd(), dir)} (${applied.length} migrations)`);
  } else {
    const url = loadCliConfig().DATABASE_URL;
    const schema = values.schema ?? service.replace(/-/g, "_");
    const dataDir = path.resolve(values["data-dir"] ?? path.join("data", service));
    const db = await openDatabase({ url, schema, dataDir, poolSize: 2 });
    try {
      console.log(url ? `deploying ${service} to PostgreSQL schema ${schema}` : `deploying ${service} to PGlite ${dataDir}`);
      const { applied } = await migrate(db, prisma);
      console.log(applied.length ? `applied:\n${applied.map((n) => `  ${n}`).join("\n")}` : "no pending migrations");
    } finally {
      await db.close();
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
