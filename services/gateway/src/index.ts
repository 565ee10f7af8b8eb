export { buildGateway, SERVICE as GATEWAY } from "./app.ts";
export { gatewayEnv, loadGatewayConfig, type GatewayConfig } from "./config.ts";
