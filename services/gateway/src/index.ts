export { buildGateway, gatewayDatabase } from "./app.ts";
export { loadGatewayConfig } from "./config.ts";
export { requestAccountKey } from "./identity/admin-client.ts";
export type { IssueKeyOptions } from "./identity/issue-account-key.ts";
export { adminSocketPath } from "./identity/admin-socket.ts";
