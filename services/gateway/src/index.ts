export { buildGateway } from "./app.ts";
export { loadGatewayConfig } from "./config.ts";
export { requestAccountKey } from "./identity/admin-client.ts";
export { adminSocketPath } from "./identity/admin-socket.ts";
