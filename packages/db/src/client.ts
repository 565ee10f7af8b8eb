// The slice of a generated Prisma client that @fit/db uses, typed structurally so this package never
// imports a service's generated client.

export interface RawSqlClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/** Readiness probe: resolves when the database answers `SELECT 1`. */
export async function ping(client: RawSqlClient): Promise<void> {
  await client.$queryRawUnsafe("SELECT 1");
}
