// Server-side key issuing: for operators (the create-key CLI, the admin socket), creating the account when the
// email is new; and for a signed-in owner (POST /api/keys), whose account id the gateway resolved. The account
// id is passed to better-auth only here, in code no client reaches (docs/security.md#5-scopes).
import { z } from "zod";
import { AppError, scopes as knownScopes } from "@fit/contracts";
import type { Auth } from "./auth.ts";

export interface IssueKeyOptions {
  /** Shown in key lists; 1–100 characters. */
  name?: string | undefined;
  /** Omitted: full access. */
  scopes?: string[] | undefined;
  /** Omitted: never expires. Otherwise 1 day to 3650 days (the plugin's bounds, set in auth.ts). */
  expiresInSeconds?: number | undefined;
  /** The latest the key may expire (its maker's own expiry): a longer or absent expiry is cut to it. */
  notAfter?: Date | null | undefined;
}

export interface IssuedKey {
  /** The key's id. */
  id: string;
  accountId: string;
  email: string;
  /** The only time the key is visible: only its hash is stored. */
  key: string;
  /** Whether this call created the account. */
  created: boolean;
}

const Options = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  scopes: z.array(z.enum(knownScopes)).min(1, "give at least one scope, or none for full access").optional(),
  expiresInSeconds: z.number().int().min(86_400).max(3650 * 86_400).optional(),
});
const Input = Options.extend({ email: z.email().transform((e) => e.toLowerCase()) });

const parse = <T extends z.ZodType>(schema: T, input: unknown): z.output<T> => {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError("validation", `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`);
};

/**
 * A new key for an existing account; the plugin's record, with the key itself (shown once). With `notAfter`, the
 * plugin is asked for no more than the whole seconds left until then, and since it counts them from its own clock
 * a moment later, the stored expiry is then set to `notAfter` exactly when it came out later.
 */
export async function issueKey(auth: Auth, accountId: string, { notAfter, ...options }: IssueKeyOptions = {}) {
  const input = parse(Options, options);
  const left = notAfter ? Math.max(1, Math.floor((notAfter.getTime() - Date.now()) / 1000)) : undefined;
  const expiresIn = left === undefined ? input.expiresInSeconds : Math.min(input.expiresInSeconds ?? left, left);
  const issued = await auth.api.createApiKey({
    body: {
      userId: accountId,
      ...(input.name ? { name: input.name } : {}),
      ...(expiresIn ? { expiresIn } : {}),
      ...(input.scopes ? { permissions: { scopes: [...new Set(input.scopes)] } } : {}),
    },
  });
  if (!notAfter || !issued.expiresAt || issued.expiresAt <= notAfter) return issued;
  const { adapter } = await auth.$context;
  await adapter.update({ model: "apikey", where: [{ field: "id", value: issued.id }], update: { expiresAt: notAfter } });
  return { ...issued, expiresAt: notAfter };
}

export async function issueAccountKey(auth: Auth, email: string, options: IssueKeyOptions = {}): Promise<IssuedKey> {
  const { email: address, ...keyOptions } = parse(Input, { email: email.trim(), ...options });
  const { user, created } = await findOrCreateAccount(auth, address);
  const issued = await issueKey(auth, user.id, keyOptions);
  return { id: issued.id, accountId: user.id, email: user.email, key: issued.key, created };
}

async function findOrCreateAccount(auth: Auth, email: string) {
  const { internalAdapter } = await auth.$context;
  const existing = await internalAdapter.findUserByEmail(email);
  if (existing) return { user: existing.user, created: false };
  try {
    // Not verified: nobody has proven control of the mailbox yet. The first magic-link sign-in does.
    const user = await internalAdapter.createUser({ email, name: "", emailVerified: false }, { method: "admin" });
    return { user, created: true };
  } catch (error) {
    // Another request created it between the lookup and the insert (the email is unique).
    const raced = await internalAdapter.findUserByEmail(email);
    if (raced) return { user: raced.user, created: false };
    throw error;
  }
}
