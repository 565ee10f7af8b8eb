import type { SessionInfo } from "@fit/contracts";
import type { SessionListing } from "../store/identity-store.ts";

/** A stored session as its owner sees it; `current` marks the one making the request. */
export const sessionView = (row: SessionListing, currentId: string): SessionInfo => ({
  id: row.id,
  createdAt: row.createdAt.getTime(),
  expiresAt: row.expiresAt.getTime(),
  userAgent: row.userAgent,
  ipAddress: row.ipAddress,
  current: row.id === currentId,
});
