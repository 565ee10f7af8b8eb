import closeWithGrace from "close-with-grace";
import { stopTelemetry } from "@fit/telemetry";
import type { FastifyInstance } from "fastify";

export interface RunOptions {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Grace period for in-flight requests before the process gives up (ms). */
  graceMs?: number;
  /**
   * Runs once the app has closed: what it shared with others in the process (the embedded process's other
   * services, bus and PGlite). Not an onClose hook of the app's: those run in reverse order of registration,
   * so one added after the app's own would run before it and close what the app still uses.
   */
  afterClose?: () => Promise<void>;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish, then runs the app's onClose
 * hooks (bus drained, database closed), and flushes telemetry, before exiting.
 */
export const runUntilSignalled = async ({ app, host, port, graceMs = 10_000, afterClose }: RunOptions): Promise<string> => {
  closeWithGrace({ delay: graceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "fatal error, shutting down");
    else app.log.info({ signal }, "shutting down");
    await app.close();
    await afterClose?.();
    await stopTelemetry();
    app.log.info("stopped");
  });
  return app.listen({ host, port });
};
