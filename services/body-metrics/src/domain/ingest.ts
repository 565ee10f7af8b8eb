/**
 * The key a scale's reading is stored once under: the scale's own id, or without one the reading's instant
 * (docs/decisions/0021-scale-ingest-token.md). The two are told apart by a prefix, so an id never collides
 * with an instant.
 */
export const ingestKey = (externalId: string | null, ts: number): string => (externalId === null ? `ts:${ts}` : `id:${externalId}`);
