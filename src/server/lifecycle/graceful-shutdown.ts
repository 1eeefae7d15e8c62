import type { Server } from "node:http";
import type { Readiness } from "../http/health";
import type { Logger } from "../logging/logger";

export interface ShutdownOptions {
  server: Server;
  readiness: Readiness;
  logger: Logger;
  /** How long in-flight requests, then the after-drain steps that take a deadline, may take. */
  deadlineMs: number;
  /** Runs as the drain begins, once not-ready: long-lived streams end here rather than hold the drain to its deadline. */
  onDraining?: () => void;
  /** Runs after the server drained, with the deadline (ms since the epoch): deliver the spool, close upstream pools, flush error reports. */
  afterDrain?: (deadline: number) => Promise<void>;
}

/**
 * Drain: report not-ready, stop accepting, let in-flight requests (long uploads too)
 * finish up to the deadline, then cut what is left and run the after-drain steps, which
 * get what is left of the same deadline.
 */
export async function drain(options: ShutdownOptions): Promise<{ timedOut: boolean }> {
  const { server, readiness, logger, deadlineMs } = options;
  const deadlineAt = Date.now() + deadlineMs;
  readiness.ready = false;
  options.onDraining?.();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections go idle as their last response finishes; close them as they do.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), deadlineMs);
  });
  const result = await Promise.race([closed.then(() => "drained" as const), deadline]);
  clearTimeout(timer);
  clearInterval(sweeper);
  if (result === "deadline") {
    logger.warn({ deadlineMs }, "drain deadline reached; closing remaining connections");
    server.closeAllConnections();
  }
  await options.afterDrain?.(deadlineAt);
  return { timedOut: result === "deadline" };
}

/**
 * SIGTERM and SIGINT start one drain; the process exits 0 when it is done. A signal during the
 * drain is logged and ignored: a second Ctrl-C, or one signal delivered twice (by the terminal
 * to the process group and by a parent passing it on), must not cut what the drain protects.
 */
export function exitOnSignals(options: ShutdownOptions): void {
  let deadlineAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (deadlineAt !== undefined) {
      options.logger.info(
        { signal, deadlineInMs: Math.max(0, deadlineAt - Date.now()) },
        "already shutting down: signal ignored, the drain goes on until its deadline",
      );
      return;
    }
    deadlineAt = Date.now() + options.deadlineMs;
    options.logger.info({ signal }, "shutting down: draining in-flight requests");
    drain(options)
      .then(({ timedOut }) => {
        options.logger.info({ timedOut }, "shutdown complete");
        process.exit(0);
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      });
  };
  // `on`, not `once`: with no listener left, Node restores the default action, which kills at once.
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
