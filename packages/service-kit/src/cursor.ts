import { z } from "zod";
import { AppError } from "@fit/contracts";
import type { PagePosition } from "@fit/db";

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
