// Accounts that write through the nutrition API and remember what they wrote, so every check compares the
// service with the shared projection model instead of numbers spelled out in each test.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { ProjectionModel } from "../../services/nutrition/test/support/projection-model.ts";
import type { NutritionRig } from "./nutrition-rig.ts";
import { serviceClient } from "./service-client.ts";

export interface Account {
  accountId: string;
  email: string;
  api: ReturnType<typeof serviceClient>;
  model: ProjectionModel;
}

export const newAccount = (rig: NutritionRig): Account => {
  const accountId = randomUUID();
  const email = `${accountId}@example.com`;
  return { accountId, email, api: serviceClient(rig.url, rig.secret, { accountId, email }), model: new ProjectionModel() };
};

// Integer kcal and half grams keep every sum exact, whatever order it is added in.
export const logItem = async (account: Account, date: string, kcal: number, proteinG: number) => {
  const response = await account.api.post("/api/nutrition/items", { date, name: "food", kcal, proteinG });
  expect(response.status).toBe(200);
  const id = response.body.id as string;
  account.model.log(id, { date, kcal, proteinG });
  return id;
};

export const editItem = async (account: Account, id: string, patch: { date?: string; kcal?: number; proteinG?: number }) => {
  expect((await account.api.patch(`/api/nutrition/items/${id}`, patch)).status).toBe(200);
  account.model.edit(id, patch);
};

export const deleteItem = async (account: Account, id: string) => {
  expect((await account.api.delete(`/api/nutrition/items/${id}`)).status).toBe(200);
  account.model.delete(id);
};

/** Read-your-writes: right after a write, every account sees its own current sums, whatever the bus does. */
export const expectReadYourWrites = async (...accounts: Account[]) => {
  for (const account of accounts) {
    const shown = (await account.api.get("/api/nutrition")).body;
    expect(shown).toEqual(account.model.totals().map((t) => expect.objectContaining({ ...t, userEmail: account.email })));
  }
};

const SETTLE_MS = 20_000;

/**
 * Waits (bounded) until the projection has caught up, then checks every invariant: each stored daily total is
 * the sum of its day's items (and no day without items has one), every outbox row is sent, no day is left
 * pending, and each account sees exactly its own sums through the API.
 */
export const expectSettled = async (rig: NutritionRig, ...accounts: Account[]) => {
  const ids = accounts.map((a) => a.accountId);
  const snapshot = async () => ({
    mismatchedDays: await rig.db.mismatchedDays(ids),
    unsentOutboxRows: await rig.db.unsentOutboxRows(ids),
    pendingDays: await rig.db.pendingDays(ids),
    storedTotals: await Promise.all(ids.map(rig.db.storedTotals)),
  });
  await expect
    .poll(snapshot, { timeout: SETTLE_MS, interval: 200 })
    .toEqual({ mismatchedDays: [], unsentOutboxRows: 0, pendingDays: 0, storedTotals: accounts.map((a) => a.model.totals().map(({ date, kcal, proteinG }) => ({ date, kcal, proteinG }))) });
  await expectReadYourWrites(...accounts);
};
