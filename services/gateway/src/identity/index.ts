// The gateway's identity module: what app.ts, the launcher and the CLI use.
export { createIdentity, type CredentialHeaders, type Identity, type IdentityOptions } from "./identity.ts";
export { API_KEY_PREFIX, type Auth } from "./auth.ts";
export type { IssuedKey, IssueKeyOptions } from "./issue-account-key.ts";
export { createMagicLinkMailer, type MagicLinkMailer, type MagicLinkMessage, type MailerOptions } from "./mailer.ts";
export { startAdminSocket, type AdminSocketOptions } from "./admin-socket.ts";
export { requestAccountKey } from "./admin-client.ts";
export { identityEnv, identityLocations, loadIdentityConfig, type IdentityConfig } from "./config.ts";
export { loadOrCreateLocalSecret } from "./local-secrets.ts";
export { silentLogger, type IdentityLogger } from "./logger.ts";
