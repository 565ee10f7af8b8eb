import { z } from "zod";

/** Fine-grained scopes for API keys and agent tokens (docs/decisions/0007-api-keys-and-scopes.md). A credential without scopes has them all. */
export const scopes = [
  "weight:read", "weight:write",
  "measurements:read", "measurements:write",
  "targets:read", "targets:write",
  "nutrition:read", "nutrition:write",
  "workouts:read", "workouts:write",
  "coach",
  "dashboard:read",
] as const;

export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;
