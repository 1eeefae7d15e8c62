import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { type AppDependencies, createApp } from "#src/server/app";
import { type LoadedAssets, loadAssets } from "#src/server/assets/manifest";
import { loadEnv, readAppSettings } from "#src/server/config/env.server";
import { createHttpServer, listen } from "#src/server/lifecycle/http-server";
import type { RedisConnection } from "#src/server/redis/redis-connection";
import { type AppServices, createAppServices, type ServiceOptions } from "#src/server/services/app-services";
import { connectSharedState, type SharedState } from "#src/server/services/shared-state";
import path from "node:path";
import { built, fixtureBuild } from "./builds";
import { FIXTURE_APP, ROOT } from "./paths";
import { testRoutes } from "./test-routes";

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino logger whose lines are kept for assertions instead of printed. */
export function memoryLogger() {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line) lines.push(JSON.parse(line) as LogLine);
      }
      callback();
    },
  });
  return { logger: pino({ level: "debug" }, sink), lines };
}

const assetsByBuild = new Map<string, LoadedAssets>();

/** A build's assets (its manifest and files), read once per test file; the build is made first if stale (builds.ts). */
export function builtAssets(dist: string): LoadedAssets {
  const known = assetsByBuild.get(dist);
  if (known) return known;
  const assets = loadAssets(built(dist));
  assetsByBuild.set(dist, assets);
  return assets;
}

/** What the services report, which a test may watch (the server hands them the metrics). */
type ServiceObservers = Pick<ServiceOptions, "observeSessionUnavailable" | "observePageCache" | "observePageCacheDropFailure" | "observeEvents">;

/**
 * What a test may give startTestApp: the app's dependencies (its own services among them), what
 * the services it gets report, and Redis state shared with others (a replica's).
 */
export type TestAppOverrides = Partial<AppDependencies> & ServiceObservers & { shared?: SharedState };

export interface TestApp {
  url: string;
  logs: LogLine[];
  /** The app's dependencies, its services, and their Redis connection when there is one. */
  deps: AppDependencies & { services: AppServices; redis: RedisConnection | undefined };
  server: ReturnType<typeof createHttpServer>;
  close(): Promise<void>;
}

/**
 * The real Koa app on a real HTTP server on an ephemeral loopback port: the fixture app
 * (test/fixtures/app, its build in dist/fixture) with the diagnostics and the tests' own routes,
 * unless `overrides` name other routes (the product's: see product-app.ts).
 */
export async function startTestApp(
  envVars: Record<string, string> = {},
  { shared: givenShared, observeSessionUnavailable, observePageCache, observePageCacheDropFailure, observeEvents, services: givenServices, ...overrides }: TestAppOverrides = {},
): Promise<TestApp> {
  const { logger, lines } = memoryLogger();
  const source = { NODE_ENV: "production", ...envVars };
  const base: Omit<AppDependencies, "services"> = {
    env: loadEnv(source),
    logger,
    readiness: { ready: true },
    routes: testRoutes,
    publicDir: path.join(ROOT, FIXTURE_APP, "public"),
    ...overrides,
    // Read only when the test brings no build of its own: the product's tests never need the fixture's.
    assets: overrides.assets ?? builtAssets(fixtureBuild()),
  };
  // With REDIS_URL the app gets its own connection, as each replica has, closed with it.
  const shared = base.env.REDIS_URL && !givenShared ? connectSharedState(base.env, logger) : undefined;
  // Built as the server and the prerender run build theirs, by the one composition root.
  const services =
    givenServices ??
    createAppServices({
      ...base,
      prerendering: base.prerendering !== undefined,
      // The app's own settings (settings.get(context)) come from the same variables, for this app alone.
      settings: readAppSettings(base.routes.settings, source),
      shared: givenShared ?? shared,
      observeSessionUnavailable,
      observePageCache,
      observePageCacheDropFailure,
      observeEvents,
    });
  const deps = { ...base, services, redis: services.redis };
  const redis = shared?.redis;
  const server = createHttpServer(createApp(deps).callback());
  await listen(server, 0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logs: lines,
    deps,
    server,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      // Services a test brought are its own to close.
      if (!givenServices) await services.events.close();
      await redis?.close();
    },
  };
}
