import { deleteAccountEvents, deleteAccountIdempotencyKeys } from "@fit/db";
import { keyAfter, type AccountData } from "@fit/service-kit";
import { foodItemView } from "./food-item-view.ts";
import { customFoodView, readRecipes, recipeView, uuidOf } from "./own-foods.ts";
import type { PrismaClient } from "./generated/client.ts";

/**
 * The account's food items, daily totals, day marks, own foods and recipes, exported page by page. Deleting also drops the days waiting for
 * their projection and the copy of the targets kept from body-metrics' events.
 */
export const accountData = (prisma: PrismaClient): AccountData => ({
  exports: {
    foodItems: {
      page: async (accountId, after, limit) =>
        (await prisma.foodItem.findMany({ where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })).map(foodItemView),
      key: (row) => row.id,
    },
    dailyTotals: {
      page: (accountId, after, limit) =>
        prisma.dailyTotal.findMany({
          where: { accountId, ...keyAfter("date", after) },
          orderBy: { date: "asc" },
          take: limit,
          select: { date: true, kcal: true, proteinG: true, itemCount: true },
        }),
      key: (row) => row.date,
    },
    dayMarks: {
      page: (accountId, after, limit) =>
        prisma.dayMark.findMany({
          where: { accountId, ...keyAfter("date", after) },
          orderBy: { date: "asc" },
          take: limit,
          select: { date: true, mark: true },
        }) as Promise<{ date: string; mark: "complete" | "excluded" }[]>,
      key: (row) => row.date,
    },
    customFoods: {
      page: async (accountId, after, limit) =>
        (await prisma.customFood.findMany({ where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })).map(customFoodView),
      key: (row) => uuidOf(row.id),
    },
    recipes: {
      page: async (accountId, after, limit) =>
        (
          await readRecipes(prisma, { where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })
        ).map(recipeView),
      key: (row) => uuidOf(row.id),
    },
  },
  deleteAccount: (accountId) =>
    prisma.$transaction(async (tx) => {
      await tx.foodItem.deleteMany({ where: { accountId } });
      await tx.recipe.deleteMany({ where: { accountId } });
      await tx.customFood.deleteMany({ where: { accountId } });
      await tx.dailyTotal.deleteMany({ where: { accountId } });
      await tx.dayMark.deleteMany({ where: { accountId } });
      await tx.pendingDay.deleteMany({ where: { accountId } });
      await tx.accountTargets.deleteMany({ where: { accountId } });
      await deleteAccountEvents(tx, accountId);
      await deleteAccountIdempotencyKeys(tx, accountId);
    }),
});
