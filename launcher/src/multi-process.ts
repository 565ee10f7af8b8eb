import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadLauncherConfig } from "./config.ts";
import { localSecrets } from "./secrets.ts";
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from "./service-node-flags.ts";

/**
 * Every service as its own process against PostgreSQL and NATS, as they run in production; this only saves
 * opening seven terminals. Each service reads its own configuration from the environment.
 */
const { config, env } = loadLauncherConfig();
if (!config.DATABASE_URL || !config.NATS_URL) {
  console.error("start:services runs each service as its own process: set DATABASE_URL and NATS_URL (or use `pnpm start`).");
  process.exit(1);
}
const secrets = await localSecrets(config);
const root = fileURLToPath(new URL("../../", import.meta.url));
const services = [
  { name: "body-metrics", port: 3101 },
  { name: "nutrition", port: 3102 },
  { name: "workouts", port: 3103 },
  { name: "coach", port: 3104 },
  { name: "insights", port: 3105 },
  { name: "imports", port: 3106 },
  { name: "gateway", port: config.PORT },
];

const children: ChildProcess[] = services.map(({ name, port }, i) =>
  spawn(process.execPath, [...SERVICE_NODE_FLAGS, `services/${name}/dist/main.js`], {
    cwd: root,
    stdio: "inherit",
    env: {
      ...SERVICE_ENV,
      ...env,
      ...secrets,
      PORT: String(port),
      // One port cannot serve seven processes' metrics: body-metrics gets METRICS_PORT, the next service +1, ...
      ...(config.METRICS_PORT ? { METRICS_PORT: String(config.METRICS_PORT + i) } : {}),
      BODY_METRICS_URL: "http://127.0.0.1:3101",
      NUTRITION_URL: "http://127.0.0.1:3102",
      WORKOUTS_URL: "http://127.0.0.1:3103",
      INSIGHTS_URL: "http://127.0.0.1:3105",
      IMPORTS_URL: "http://127.0.0.1:3106",
    },
  }),
);

let stopping = false;
const stopAll = (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
};
for (const child of children) child.on("exit", (code) => stopAll(code ?? 1));
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));
