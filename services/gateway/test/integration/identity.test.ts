// The identity core against a real PostgreSQL: the migrations in a schema of their own, keys and sessions
// resolved in one query each, and the races PGlite's single connection cannot show.
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { uniqueTag } from "@fit/testing";
import { createTestIdentity, openIdentityDb, type IdentityDb } from "../identity-fixture.ts";

const ORIGIN = "http://localhost:3000";
const schema = uniqueTag("identity_");
let h: IdentityDb;
let t: ReturnType<typeof createTestIdentity>;
let n = 0;
const freshEmail = () => `pg-${++n}-${Date.now()}@example.com`;

async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  h = await openIdentityDb({ url: inject("databaseUrl"), schema });
  t = createTestIdentity(h.store);
});
afterAll(async () => {
  await h?.close();
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});

const requestLink = async (email: string) => {
  const sent = t.mails.length;
  const response = await t.identity.handler(
    new Request(`${ORIGIN}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ email, callbackURL: "/" }),
    }),
  );
  expect(response.status).toBe(200);
  expect(t.mails.length).toBe(sent + 1);
  return t.mails.at(-1)?.url ?? "";
};
const sessionCookie = (response: Response) =>
  response.headers.getSetCookie().find((c) => /^better-auth\.session_token=[^;]+/.test(c))?.split(";")[0];

describe("identity on PostgreSQL", () => {
  it("keeps its tables in its own schema, none in public", async () => {
    const tables = await sql<{ table_schema: string; table_name: string }>(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('user','session','account','verification','api_key')",
    );
    expect(tables.filter((row) => row.table_schema === schema).map((row) => row.table_name).sort()).toEqual(
      ["account", "api_key", "session", "user", "verification"],
    );
    expect(tables.filter((row) => row.table_schema === "public")).toEqual([]);
  });

  it("stores no client URL the server would fetch, so no client registered before that rule keeps one", async () => {
    const stored = (field: string) =>
      sql(`INSERT INTO "${schema}".oauth_client (id, client_id, redirect_uris, ${field}) VALUES (gen_random_uuid(), $1, '{}', $2)`, [
        `client-${field}`,
        "https://intranet.example/logout",
      ]);
    for (const field of ["backchannel_logout_uri", "jwks_uri"]) await expect(stored(field), field).rejects.toThrow(/oauth_client_fetches_no_url/);
  });

  it("stores a key as its SHA-256 and resolves it with one SELECT, writing only its last use once a minute", async () => {
    const issued = await t.identity.issueAccountKey(freshEmail(), { scopes: ["nutrition:read"] });
    const [row] = await sql<{ key: string; updated_at: Date }>(`SELECT key, updated_at FROM "${schema}".api_key WHERE reference_id = $1`, [issued.accountId]);
    expect(row?.key).toBe(createHash("sha256").update(issued.key).digest("base64url"));
    h.queries.reset();
    await expect(t.identity.resolveCaller({ authorization: `Bearer ${issued.key}` })).resolves.toEqual({
      accountId: issued.accountId,
      email: issued.email,
      scopes: ["nutrition:read"],
      credential: { kind: "api_key", id: expect.stringMatching(/^[0-9a-f-]{36}$/), expiresAt: null },
    });
    expect(h.queries.sql).toHaveLength(2);
    expect(h.queries.sql[0]).toMatch(/^\s*SELECT/i);
    expect(h.queries.sql[1]).toMatch(/^\s*UPDATE api_key SET last_request = now\(\)/i);
    h.queries.reset();
    await t.identity.resolveCaller({ authorization: `Bearer ${issued.key}` });
    expect(h.queries.sql).toHaveLength(1);
    expect(h.queries.sql[0]).toMatch(/^\s*SELECT/i);
    const [after] = await sql<{ updated_at: Date }>(`SELECT updated_at FROM "${schema}".api_key WHERE reference_id = $1`, [issued.accountId]);
    expect(after?.updated_at).toEqual(row?.updated_at);
  });

  it("refuses a revoked key and an expired key", async () => {
    const revoked = await t.identity.issueAccountKey(freshEmail());
    const expiring = await t.identity.issueAccountKey(freshEmail(), { expiresInSeconds: 86_400 });
    await sql(`DELETE FROM "${schema}".api_key WHERE reference_id = $1`, [revoked.accountId]);
    await sql(`UPDATE "${schema}".api_key SET expires_at = now() - interval '1 second' WHERE reference_id = $1`, [expiring.accountId]);
    await expect(t.identity.resolveCaller({ authorization: `Bearer ${revoked.key}` })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(t.identity.resolveCaller({ authorization: `Bearer ${expiring.key}` })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("creates one account when keys for a new email are issued concurrently", async () => {
    const email = freshEmail();
    const results = await Promise.all(Array.from({ length: 4 }, () => t.identity.issueAccountKey(email)));
    expect(new Set(results.map((r) => r.accountId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await sql(`SELECT 1 FROM "${schema}"."user" WHERE email = $1`, [email])).toHaveLength(1);
  });

  it("consumes a magic link once even when it is followed concurrently", async () => {
    const url = await requestLink(freshEmail());
    const responses = await Promise.all(Array.from({ length: 4 }, () => t.identity.handler(new Request(url))));
    const cookies = responses.map(sessionCookie).filter(Boolean);
    expect(cookies).toHaveLength(1);
    expect(responses.filter((r) => /error=INVALID_TOKEN/.test(r.headers.get("location") ?? ""))).toHaveLength(3);
  });

  it("resolves the session cookie in one query, and not after sign-out", async () => {
    const email = freshEmail();
    const cookie = sessionCookie(await t.identity.handler(new Request(await requestLink(email)))) ?? "";
    h.queries.reset();
    await expect(t.identity.resolveCaller({ cookie })).resolves.toMatchObject({ email, scopes: null });
    expect(h.queries.count).toBe(1);
    const out = await t.identity.handler(new Request(`${ORIGIN}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: ORIGIN } }));
    expect(out.status).toBe(200);
    await expect(t.identity.resolveCaller({ cookie })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
