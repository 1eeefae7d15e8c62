import { createTunnel } from "#src/server/tunnel";
import { connectSharedState } from "#src/server/services/shared-state";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { type LogLine, memoryLogger, startTestApp, type TestApp } from "../../support/test-app";

export interface Replica {
  app: TestApp;
  /** What the replica's Redis connection logged. */
  redisLogs: LogLine[];
  close(): Promise<void>;
}

/**
 * One replica as production runs it: its own Redis connection and limits, the tunnel mounted with
 * the shared limiter (TUNNEL_LIMIT a minute), feedback reporting on and the diagnostics routes;
 * the fixture app's, or another app's through `start` (startProductApp).
 */
export async function startReplica(redisUrl: string, dsn: string, tunnelLimit: number, start: typeof startTestApp = startTestApp): Promise<Replica> {
  const env = { REDIS_URL: redisUrl, REDIS_TIMEOUT_MS: 100 };
  const { logger, lines } = memoryLogger();
  const shared = connectSharedState(env, logger);
  const tunnel = createTunnel({
    path: "/monitoring",
    allowedDsns: [dsn],
    maxBytes: 1024 * 1024,
    rateLimitPerMinute: tunnelLimit,
    limiter: shared.rateLimits.limiter("tunnel", tunnelLimit, 60),
    connectTimeoutMs: 1_000,
    headersTimeoutMs: 2_000,
  });
  const app = await start(
    { REDIS_URL: redisUrl, ENABLE_DIAGNOSTIC_ROUTES: "true" },
    { shared, tunnel, monitoring: recordingMonitoring().monitoring },
  );
  return {
    app,
    redisLogs: lines,
    close: async () => {
      await app.close();
      await tunnel.close();
      await shared.redis.close();
    },
  };
}

/** Sends `count` requests from one client, spread round-robin over the replicas; the statuses in order. */
export async function roundRobin(replicas: Replica[], count: number, request: (url: string) => Promise<Response>): Promise<Response[]> {
  const answers: Response[] = [];
  for (let i = 0; i < count; i++) answers.push(await request((replicas[i % replicas.length] as Replica).app.url));
  return answers;
}
