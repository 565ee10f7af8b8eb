import { z } from "zod";
import { AppError } from "@fit/contracts";

/** Keyset position of the last item of a page: lists are ordered by (time desc, id desc), stable under inserts. */
export interface PagePosition {
  at: number;
  id: string;
}

export const encodeCursor = ({ at, id }: PagePosition): string =>
  Buffer.from(JSON.stringify([at, id])).toString("base64url");

/** What encodeCursor writes; anything else (a crafted or truncated cursor) is refused before any query. */
const Position = z.tuple([z.number().int().min(-8.64e15).max(8.64e15), z.uuid()]);

export const decodeCursor = (cursor: string | undefined): PagePosition | undefined => {
  if (cursor === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    decoded = undefined;
  }
  const position = Position.safeParse(decoded);
  if (!position.success) throw new AppError("validation", "cursor is not valid");
  const [at, id] = position.data;
  return { at, id };
};

/** Builds a page from `limit + 1` rows: the extra row only says whether there is a next page. */
export const toPage = <T>(rows: T[], limit: number, positionOf: (row: T) => PagePosition) => {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
};

export interface RangePage {
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  after?: PagePosition | undefined;
}

type KeysetClause<F extends string> = { [K in F]?: { gte?: Date; lt?: Date } | Date } & {
  id?: { lt: string };
  OR?: KeysetClause<F>[];
};

/** Prisma `where` clauses for a newest-first keyset page over (`field`, id), `field` a timestamp column. */
export const keysetWhere = <F extends string>(field: F, { from, to, after }: RangePage): KeysetClause<F>[] => [
  ...(from !== undefined ? [{ [field]: { gte: new Date(from) } }] : []),
  ...(to !== undefined ? [{ [field]: { lt: new Date(to) } }] : []),
  ...(after
    ? [{ OR: [{ [field]: { lt: new Date(after.at) } }, { [field]: new Date(after.at), id: { lt: after.id } }] }]
    : []),
] as KeysetClause<F>[];

export const newestFirst = <F extends string>(field: F) => [{ [field]: "desc" }, { id: "desc" }] as Record<F | "id", "desc">[];
