import type { PagePosition } from "@fit/service-kit";

export interface RangePage {
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  after?: PagePosition | undefined;
}

/** Prisma `where` clauses for a newest-first keyset page over (ts, id). */
export const keysetWhere = ({ from, to, after }: RangePage) => [
  ...(from !== undefined ? [{ ts: { gte: new Date(from) } }] : []),
  ...(to !== undefined ? [{ ts: { lt: new Date(to) } }] : []),
  ...(after
    ? [{ OR: [{ ts: { lt: new Date(after.at) } }, { ts: new Date(after.at), id: { lt: after.id } }] }]
    : []),
];

export const newestFirst = [{ ts: "desc" as const }, { id: "desc" as const }];
