import { pino, type Logger } from "pino";

export type { Logger };

/**
 * JSON lines in production (for the log shipper); readable lines in development. Headers
 * that carry secrets are redacted should a request ever be logged whole by mistake.
 */
export function createLogger({ level, pretty }: { level: string; pretty: boolean }): Logger {
  return pino({
    level,
    redact: ["req.headers.cookie", "req.headers.authorization", "*.dsn", "*.authToken"],
    ...(pretty
      ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss.l" } } }
      : {}),
  });
}
