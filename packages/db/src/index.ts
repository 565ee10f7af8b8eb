// @fit/db: how every service reaches its database (PostgreSQL or embedded PGlite), applies its committed
// migrations, and relays its transactional outbox.
export type { Database } from "./database.ts";
export { openDatabase, type DatabaseConfig } from "./open.ts";
export { isPGliteCluster, openSharedPGlite, type SharedPGlite } from "./pglite.ts";
export { migrate, servicePrisma, type ServicePrisma } from "./migrate.ts";
export { newestFirstPage, type PagePosition, type RangePage } from "./keyset.ts";
export { pgliteTemplatePath, writeSharedPgliteTemplate } from "./template.ts";
export { changeWithEvent, createOutboxSource, deleteAccountEvents, type NewOutboxEvent, type OutboxRow, type OutboxSource } from "./outbox.ts";
export { ping, type RawSqlClient } from "./client.ts";
export { forgetQueryArguments } from "./query-history.ts";
export { runExclusively } from "./run-exclusively.ts";
export { createIdempotencyKeys, deleteAccountIdempotencyKeys, recordAnswer, type IdempotencyClaim, type IdempotencyKeys } from "./idempotency.ts";
export { workerExecArgv } from "./worker-exec-argv.ts";
export { onOwnThread, threadTask } from "./own-thread.ts";
