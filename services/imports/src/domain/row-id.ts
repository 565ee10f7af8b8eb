import { createHash } from "node:crypto";

/**
 * The id an import gives a row: a UUID v5 of the import's id (as namespace) and the row's external id, so a step
 * done again after a crash proposes the same ids and can tell the rows it stored the first time from rows that
 * were there before.
 */
export const rowIdOf = (importId: string, externalId: string): string => {
  const hash = createHash("sha1").update(Buffer.from(importId.replaceAll("-", ""), "hex")).update(externalId).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
