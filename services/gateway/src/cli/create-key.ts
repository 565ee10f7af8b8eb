// pnpm --filter @fit/gateway create-key <email> [--name <name>] [--scope <scope>]... [--expires-in-days <n>]
// Prints a new API key for the account (created if new) as the LAST line of stdout; everything else goes to
// stderr, so `KEY=$(pnpm ... create-key me@example.com | tail -n1)` works.
// A running gateway is asked over its admin socket (it holds the embedded database); otherwise the database
// is opened here, migrated, and closed.
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { migrate, openDatabase } from "@fit/db";
import { requestAccountKey } from "../identity/admin-client.ts";
import { identityLocations, loadIdentityConfig, type IdentityConfig } from "../identity/config.ts";
import { createIdentity } from "../identity/identity.ts";
import type { IssuedKey, IssueKeyOptions } from "../identity/issue-account-key.ts";
import { loadOrCreateLocalSecret } from "../identity/local-secrets.ts";
import type { IdentityLogger } from "../identity/logger.ts";
import { createMagicLinkMailer } from "../identity/mailer.ts";
import { createIdentityStore } from "../store/identity-store.ts";

const usage = "usage: create-key <email> [--name <name>] [--scope <scope>]... [--expires-in-days <days>]";
const prismaDir = fileURLToPath(new URL("../../prisma/", import.meta.url));

const stderrLogger: IdentityLogger = {
  debug() {},
  info: (_obj, msg) => void process.stderr.write(`${msg ?? ""}\n`),
  warn: (_obj, msg) => void process.stderr.write(`warning: ${msg ?? ""}\n`),
  error: (_obj, msg) => void process.stderr.write(`error: ${msg ?? ""}\n`),
};

function parse(argv: string[]): { email: string; options: IssueKeyOptions } {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, scope: { type: "string", multiple: true }, "expires-in-days": { type: "string" } },
  });
  const [email, ...extra] = positionals;
  if (!email || extra.length > 0) throw new Error(usage);
  const days = values["expires-in-days"];
  return {
    email,
    options: { name: values.name, scopes: values.scope, expiresInSeconds: days === undefined ? undefined : Number(days) * 86_400 },
  };
}

async function issueDirectly(config: IdentityConfig, email: string, options: IssueKeyOptions): Promise<IssuedKey> {
  const where = identityLocations(config.DATA_DIR);
  const db = await openDatabase({ url: config.DATABASE_URL, schema: where.schema, dataDir: where.pgliteDir, poolSize: 2 });
  const store = createIdentityStore(db);
  try {
    await migrate(db, { schemaPath: path.join(prismaDir, "schema.prisma"), migrationsDir: path.join(prismaDir, "migrations") });
    const identity = createIdentity({
      prisma: store.prisma,
      baseUrl: config.PUBLIC_URL,
      // Not used to issue a key, but better-auth wants one; the shared helper keeps it the gateway's value.
      secret: config.BETTER_AUTH_SECRET ?? (await loadOrCreateLocalSecret(config.DATA_DIR, where.secretName)),
      trustedOrigins: [new URL(config.PUBLIC_URL).origin],
      mailer: createMagicLinkMailer({ from: config.MAIL_FROM, logger: stderrLogger, console: process.stderr }),
      logger: stderrLogger,
    });
    return await identity.issueAccountKey(email, options);
  } finally {
    await store.close();
    await db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { email, options } = parse(argv);
  const config = loadIdentityConfig();
  const socket = identityLocations(config.DATA_DIR).adminSocket;
  let issued = await requestAccountKey(socket, email, options);
  if (issued) process.stderr.write(`issued by the running gateway (${socket})\n`);
  else {
    process.stderr.write(`no gateway answers on ${socket}; opening the identity database itself\n`);
    issued = await issueDirectly(config, email, options);
  }
  process.stderr.write(
    `${issued.created ? "created account" : "account"} ${issued.email} (${issued.accountId}); ` +
      `new ${options.scopes ? `key with scopes ${options.scopes.join(" ")}` : "full-access key"}, shown only now:\n`,
  );
  process.stdout.write(`${issued.key}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`create-key: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
