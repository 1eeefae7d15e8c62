import { type Logger, pino } from "pino";

export type { Logger };

const options = (level: string) => ({
  level,
  // Should a request ever be logged whole by mistake, its secrets still are not.
  redact: ["req.headers.cookie", "req.headers.authorization", "*.dsn", "*.authToken"],
});

/**
 * JSON lines, one per record: what log shippers read in production. Written synchronously: a
 * line is out before the next statement, and a reader that has gone (EPIPE) silences the logger
 * at the first line instead of hanging the exit (docs/decisions/0064-signals-and-closed-output.md).
 */
export function createLogger({ level }: { level: string }): Logger {
  return pino(options(level), pino.destination({ dest: 1, sync: true }));
}

/**
 * Readable lines for development. pino-pretty is a devDependency (absent from the
 * production image), hence the dynamic import; it runs in-process rather than as a
 * transport worker, which would add a thread start to every dev restart.
 */
export async function createDevelopmentLogger({ level }: { level: string }): Promise<Logger> {
  const { default: pretty } = await import("pino-pretty");
  return pino(options(level), pretty({ translateTime: "HH:MM:ss.l", sync: true }));
}
