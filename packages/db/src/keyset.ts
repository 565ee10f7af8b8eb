import { empty, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";

/** Keyset position of the last item of a page: lists are ordered by (time desc, id desc), stable under inserts. */
export interface PagePosition {
  at: number;
  id: string;
}

export interface RangePage {
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  after?: PagePosition | undefined;
}

/**
 * The rest of a query after its WHERE conditions: the range on `column` (a timestamp, [from, to)), the rows
 * after the page position, newest first by (`column`, id), one row beyond the page so the caller can tell
 * whether another follows. The row comparison walks the (account_id, column DESC, id DESC) index.
 */
export const newestFirstPage = (column: string, { from, to, after, limit }: RangePage): Sql => {
  const at = raw(column);
  return sql`${from !== undefined ? sql`AND ${at} >= ${new Date(from)}` : empty}
    ${to !== undefined ? sql`AND ${at} < ${new Date(to)}` : empty}
    ${after ? sql`AND (${at}, id) < (${new Date(after.at)}, ${after.id}::uuid)` : empty}
    ORDER BY ${at} DESC, id DESC LIMIT ${limit + 1}`;
};
