import closeWithGrace from "close-with-grace";
import { stopTelemetry } from "@fit/telemetry";
import type { FastifyInstance } from "fastify";

export interface RunOptions {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Grace period for in-flight requests before the process gives up (ms). */
  graceMs?: number;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish, then runs the app's onClose
 * hooks (bus drained, database closed), and flushes telemetry, before exiting.
 */
export const runUntilSignalled = async ({ app, host, port, graceMs = 10_000 }: RunOptions): Promise<string> => {
  closeWithGrace({ delay: graceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "fatal error, shutting down");
    else app.log.info({ signal }, "shutting down");
    await app.close();
    await stopTelemetry();
    app.log.info("stopped");
  });
  return app.listen({ host, port });
};
