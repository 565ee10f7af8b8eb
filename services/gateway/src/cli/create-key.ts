// pnpm --filter @fit/gateway create-key <email> [--name <name>] [--scope <scope>]... [--expires-in-days <n>]
// Prints a new API key for the account (created if new) as the LAST line of stdout; everything else goes to
// stderr, so `KEY=$(pnpm ... create-key me@example.com | tail -n1)` works.
// A running gateway is asked over its admin socket (it holds the embedded database); otherwise the database
// is opened here, migrated, and closed.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { grantedOnlyScopes, scopes } from "@fit/contracts";
import { openEmbeddedPGlite, openServiceDatabase } from "@fit/service-kit";
import { gatewayDatabase } from "../app.ts";
import { loadCreateKeyConfig, type CreateKeyConfig } from "../config.ts";
import { adminSocketPath } from "../identity/admin-socket.ts";
import { requestAccountKey } from "../identity/admin-client.ts";
import { createIdentity } from "../identity/identity.ts";
import type { IssuedKey, IssueKeyOptions } from "../identity/issue-account-key.ts";
import type { IdentityLogger } from "../identity/logger.ts";
import { createMagicLinkMailer } from "../identity/mailer.ts";
import { createIdentityStore } from "../store/identity-store.ts";

const usage = "usage: create-key <email> [--name <name>] [--scope <scope>]... [--expires-in-days <days>]";
const help = [
  "Issues an API key for the account with that email (created if new) and prints it as the last line.",
  `Without --scope the key has every scope but ${grantedOnlyScopes.join(" and ")}, which it holds only when named.`,
  `Scopes: ${scopes.join(", ")}.`,
].join("\n");

const stderrLogger: IdentityLogger = {
  debug() {},
  info: (_obj, msg) => void process.stderr.write(`${msg ?? ""}\n`),
  warn: (_obj, msg) => void process.stderr.write(`warning: ${msg ?? ""}\n`),
  error: (_obj, msg) => void process.stderr.write(`error: ${msg ?? ""}\n`),
};

function parse(argv: string[]): { email: string; options: IssueKeyOptions } | null {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scope: { type: "string", multiple: true },
      "expires-in-days": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return null;
  const [email, ...extra] = positionals;
  if (!email || extra.length > 0) throw new Error(usage);
  const days = values["expires-in-days"];
  return {
    email,
    options: { name: values.name, scopes: values.scope, expiresInSeconds: days === undefined ? undefined : Number(days) * 86_400 },
  };
}

async function issueDirectly(config: CreateKeyConfig, email: string, options: IssueKeyOptions): Promise<IssuedKey> {
  // Where `pnpm start` keeps it: the embedded process's shared PGlite, unless DATA_DIR has the gateway's own folder.
  const pglite = config.DATABASE_URL ? undefined : await openEmbeddedPGlite(config.DATA_DIR, [gatewayDatabase.name]);
  const db = await openServiceDatabase(gatewayDatabase, config, 2, pglite);
  const store = createIdentityStore(db);
  try {
    const identity = createIdentity({
      store,
      baseUrl: config.PUBLIC_URL,
      // Issuing a key signs nothing (keys are stored hashed), but better-auth wants a secret to start.
      secret: config.BETTER_AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      trustedOrigins: [new URL(config.PUBLIC_URL).origin],
      mailer: createMagicLinkMailer({ from: config.MAIL_FROM, logger: stderrLogger, console: process.stderr }),
      logger: stderrLogger,
    });
    return await identity.issueAccountKey(email, options);
  } finally {
    await store.close();
    await db.close();
    await pglite?.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const parsed = parse(argv);
  if (!parsed) {
    process.stdout.write(`${usage}\n${help}\n`);
    return;
  }
  const { email, options } = parsed;
  const config = loadCreateKeyConfig();
  const socket = adminSocketPath(config.DATA_DIR);
  let issued = await requestAccountKey(socket, email, options);
  if (issued) process.stderr.write(`issued by the running gateway (${socket})\n`);
  else {
    process.stderr.write(`no gateway answers on ${socket}; opening the identity database itself\n`);
    issued = await issueDirectly(config, email, options);
  }
  process.stderr.write(
    `${issued.created ? "created account" : "account"} ${issued.email} (${issued.accountId}); ` +
      `new key with ${options.scopes ? `scopes ${options.scopes.join(" ")}` : `every scope but ${grantedOnlyScopes.join(" and ")}`}, shown only now:\n`,
  );
  process.stdout.write(`${issued.key}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`create-key: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
