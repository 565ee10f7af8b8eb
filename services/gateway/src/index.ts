export { buildGateway, SERVICE as GATEWAY } from "./app.ts";
export { gatewayEnv, loadGatewayConfig, type GatewayConfig } from "./config.ts";
export { loadOrCreateLocalSecret } from "./identity/local-secrets.ts";
export { resolveDataDir } from "./identity/config.ts";
export { requestAccountKey } from "./identity/admin-client.ts";
