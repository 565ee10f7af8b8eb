import type { ConnectedApp } from "@fit/contracts";
import type { ConnectedAppRows } from "../store/identity-store.ts";

const hostOf = (uri: string): string | null => (URL.canParse(uri) ? new URL(uri).host || null : null);

/**
 * The OAuth clients an account has let in, one per client holding a grant (a consent, or a live refresh token):
 * what it was allowed (the consent's scopes, or else its live refresh tokens'), when it was first let in, and when
 * it last got tokens (each authorization with a refresh token, and each refresh, writes a refresh-token row).
 * Most recently used first.
 */
export const connectedApps = ({ clients, consents, liveRefreshTokens, lastIssues }: ConnectedAppRows): ConnectedApp[] =>
  clients
    .flatMap((client) => {
      const ofClient = <R extends { clientId: string }>(rows: R[]) => rows.filter((row) => row.clientId === client.clientId);
      const consent = ofClient(consents);
      const live = ofClient(liveRefreshTokens);
      const grant = consent.length > 0 ? consent : live;
      if (grant.length === 0) return [];
      const lastIssue = ofClient(lastIssues)[0]?.at ?? null;
      return [{
        clientId: client.clientId,
        name: client.name,
        scopes: [...new Set(grant.flatMap((row) => row.scopes))].sort(),
        selfRegistered: client.selfRegistered,
        redirectHosts: [...new Set(client.redirectUris.map(hostOf).filter((host): host is string => host !== null))],
        createdAt: Math.min(...[...consent, ...live].map((row) => row.createdAt.getTime())),
        lastUsedAt: lastIssue?.getTime() ?? null,
      }];
    })
    .sort((a, b) => (b.lastUsedAt ?? b.createdAt) - (a.lastUsedAt ?? a.createdAt));
