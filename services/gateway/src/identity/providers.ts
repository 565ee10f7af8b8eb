// Sign-in through identity providers (docs/decisions/0024-identity-provider-sign-in.md): any OpenID Connect
// provider through better-auth's genericOAuth plugin, Google and GitHub through its built-in presets.
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { IdentityProviders } from "../config.ts";
import type { IdentityLogger } from "./logger.ts";

export type { IdentityProviders };

const discoveryUrl = (issuer: string) => `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;

/** The ids of the configured providers: what sign-in requests name and callback paths end with. */
export const providerIds = ({ oidc, google, github }: IdentityProviders) =>
  [oidc?.id, google && "google", github && "github"].filter((id): id is string => typeof id === "string");

/** The presets, each only when configured. */
export const socialProviders = ({ google, github }: IdentityProviders) => ({ ...(google ? { google } : {}), ...(github ? { github } : {}) });

/**
 * The OpenID Connect provider: endpoints and signing keys from the issuer's discovery document, authorization
 * code with PKCE (S256), and an ID token that must verify against the issuer's keys or the provider is left out.
 */
export const oidcPlugins = ({ oidc }: IdentityProviders) =>
  oidc
    ? [
        genericOAuth({
          config: [
            {
              providerId: oidc.id,
              discoveryUrl: discoveryUrl(oidc.issuer),
              clientId: oidc.clientId,
              clientSecret: oidc.clientSecret,
              scopes: oidc.scopes,
              pkce: true,
              requireIdTokenVerification: true,
            },
          ],
        }),
      ]
    : [];

/**
 * better-auth reads the discovery document once, while it starts, with no deadline, and every auth request
 * (magic links and session checks too) waits for that start. So the document is read here first within the
 * budget; an issuer that does not answer leaves its provider out (sign-in with it answers 503) rather than
 * holding up the gateway. The next start tries again.
 */
export const reachableProviders = async (providers: IdentityProviders, timeoutMs: number, logger: IdentityLogger): Promise<IdentityProviders> => {
  if (!providers.oidc) return providers;
  const url = discoveryUrl(providers.oidc.issuer);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    if (response.ok) return providers;
    logger.error({ url, status: response.status }, "OpenID Connect discovery failed: sign-in with this provider is off until the next start");
  } catch (error) {
    logger.error({ url, err: error }, "OpenID Connect discovery failed: sign-in with this provider is off until the next start");
  }
  return { ...providers, oidc: undefined };
};
