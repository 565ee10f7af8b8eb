import { AppError } from "@fit/contracts";

/** Keyset position of the last item of a page: lists are ordered by (time desc, id desc), stable under inserts. */
export interface PagePosition {
  at: number;
  id: string;
}

export const encodeCursor = ({ at, id }: PagePosition): string =>
  Buffer.from(JSON.stringify([at, id])).toString("base64url");

export const decodeCursor = (cursor: string | undefined): PagePosition | undefined => {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown[];
    if (typeof at === "number" && typeof id === "string") return { at, id };
  } catch {
    // fall through to the validation error
  }
  throw new AppError("validation", "cursor is not valid");
};

/** Builds a page from `limit + 1` rows: the extra row only says whether there is a next page. */
export const toPage = <T>(rows: T[], limit: number, positionOf: (row: T) => PagePosition) => {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
};
