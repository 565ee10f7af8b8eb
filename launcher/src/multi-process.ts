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
const names = ["body-metrics", "nutrition", "workouts", "coach", "insights", "imports"] as const;
const portOf = (name: (typeof names)[number]) => config.SERVICES_PORT + names.indexOf(name);
if (config.PORT >= portOf("body-metrics") && config.PORT <= portOf("imports")) {
  console.error(`start:services: PORT ${config.PORT} is one of the services' ports (SERVICES_PORT ${config.SERVICES_PORT} and the ${names.length - 1} after it): move one of them.`);
  process.exit(1);
}
const secrets = await localSecrets(config);
const root = fileURLToPath(new URL("../../", import.meta.url));
const services = [...names.map((name) => ({ name, port: portOf(name) })), { name: "gateway", port: config.PORT }];
const urlOf = (name: (typeof names)[number]) => `http://127.0.0.1:${portOf(name)}`;

const children: ChildProcess[] = services.map(({ name, port }, i) =>
  spawn(process.execPath, [...SERVICE_NODE_FLAGS, `services/${name}/dist/main.js`], {
    cwd: root,
    stdio: "inherit",
    // A session of its own, so a terminal's Ctrl-C (SIGINT to the whole foreground process group) reaches only
    // this launcher, which passes one SIGTERM on: a service given two signals skips its graceful close.
    detached: true,
    env: {
      ...SERVICE_ENV,
      ...env,
      ...secrets,
      PORT: String(port),
      // One port cannot serve seven processes' metrics: body-metrics gets METRICS_PORT, the next service +1, ...
      ...(config.METRICS_PORT ? { METRICS_PORT: String(config.METRICS_PORT + i) } : {}),
      BODY_METRICS_URL: urlOf("body-metrics"),
      NUTRITION_URL: urlOf("nutrition"),
      WORKOUTS_URL: urlOf("workouts"),
      INSIGHTS_URL: urlOf("insights"),
      IMPORTS_URL: urlOf("imports"),
    },
  }),
);

let stopping = false;
/** Once, whatever asks: a wrapper (pnpm) may pass on the signal the terminal already sent this process. */
const stopAll = (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  process.exitCode = code;
};
for (const child of children) child.on("exit", (code) => stopAll(code ?? 1));
// SIGHUP: the terminal closed; the services, in sessions of their own, no longer hear of it themselves.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stopAll(0));
// The launcher ending any other way (an uncaught error) takes the services with it, as it would in one process group.
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
});
