import { accountExportParts, type ExportPart } from "@fit/contracts";
import type { Credential } from "../identity/credential.ts";
import { signedInRecently } from "./recent-sign-in.ts";

/**
 * Deleting the account needs proof that its owner is at the keyboard now: a session signed in within the last
 * 10 minutes, or a key granted the `account` scope by name (the scope check has already required it; only such a
 * session can grant it, see grantNeedsRecentSignIn).
 */
export const confirmsDeletion = (credential: Credential, now: number): boolean =>
  credential.kind === "api_key" || signedInRecently(credential, now);

export type PageOf = (part: ExportPart, after: string | null) => Promise<{ rows: unknown[]; next: string | null }>;

/**
 * The export as JSON text, produced as it is read: `head` (an object) first, then each part's array, one page at
 * a time. Only one page is ever held, so an export of any size takes the same memory; a pull that stops (a slow
 * or gone client) stops the asking too.
 */
export async function* exportDocument(head: object, pageOf: PageOf): AsyncGenerator<string> {
  yield JSON.stringify(head).slice(0, -1);
  for (const part of Object.keys(accountExportParts) as ExportPart[]) {
    yield `,${JSON.stringify(part)}:[`;
    let after: string | null = null;
    let separator = "";
    do {
      const { rows, next }: Awaited<ReturnType<PageOf>> = await pageOf(part, after);
      if (rows.length > 0) yield separator + rows.map((row) => JSON.stringify(row)).join(",");
      separator = ",";
      after = next;
    } while (after !== null);
    yield "]";
  }
  yield "}";
}
