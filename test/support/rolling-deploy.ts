import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { BuildManifest } from "../../src/server/assets/manifest";
import { fixtureBuild } from "./builds";
import { FIXTURE_APP, ROOT } from "./paths";
import { until } from "./raw-http";
import { type ServerProcess, startServerProcess } from "./server-process";

/**
 * Two builds of the fixture app side by side, as during a rolling update: build A (the global
 * setup's dist/fixture) and build B (a copy with one line of the home page changed, so most
 * chunks re-hash), each a real server process, and a round-robin balancer in front of both.
 */

/** The line build B changes, in Home.tsx: its chunk re-hashes, and with it every chunk importing it. */
const CHANGED_FILE = "Home.tsx";
const CHANGED_FROM = "Fixture home<";
const CHANGED_TO = "Fixture home (build B)<";

export interface Build {
  /** The build's folder (absolute): manifest.json, client/, server/. */
  dist: string;
  manifest: BuildManifest;
}

/** Build A: the fixture app's build (dist/fixture/), made first if stale. */
export function buildA(): Build {
  return readBuild(fixtureBuild());
}

let builtB: Build | undefined;

/**
 * Build B, made once per test file (each file gets its own folder under dist/, removed at exit or,
 * when vitest kills the worker first, by the next run):
 * the fixture app copied where its relative imports of src/ still resolve, one line changed, built.
 */
export function buildB(): Build {
  if (builtB) return builtB;
  removeAbandonedBuilds();
  const folder = path.join("dist", `rolling-${process.pid}-${Date.now().toString(36)}`);
  // Three levels below ROOT, like test/fixtures/app, so `../../../src/...` imports resolve.
  const appDir = path.join(folder, "app");
  const outDir = path.join(folder, "build");
  cpSync(path.join(ROOT, FIXTURE_APP), path.join(ROOT, appDir), { recursive: true });
  const changed = path.join(ROOT, appDir, CHANGED_FILE);
  const source = readFileSync(changed, "utf8");
  if (!source.includes(CHANGED_FROM)) throw new Error(`rolling-deploy: ${CHANGED_FILE} no longer contains "${CHANGED_FROM}"`);
  writeFileSync(changed, source.replace(CHANGED_FROM, CHANGED_TO));
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, OUTPOST_APP_DIR: appDir, OUTPOST_OUT_DIR: outDir },
  });
  process.once("exit", () => rmSync(path.join(ROOT, folder), { recursive: true, force: true }));
  builtB = readBuild(path.join(ROOT, outDir));
  return builtB;
}

/** A test worker killed before its exit hook ran leaves its build B behind: removed once its process is gone. */
function removeAbandonedBuilds(): void {
  for (const name of readdirSync(path.join(ROOT, "dist"))) {
    const pid = Number(/^rolling-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(path.join(ROOT, "dist", name), { recursive: true, force: true });
    }
  }
}

function readBuild(dist: string): Build {
  return { dist, manifest: JSON.parse(readFileSync(path.join(dist, "manifest.json"), "utf8")) as BuildManifest };
}

/** The text build B shows on its home page (A shows "Fixture home"). */
export const BUILD_B_HOME_TEXT = "Fixture home (build B)";

const ASSET_REFERENCE = /(?:src|href)="(\/assets\/[^"]+)"/g;
/** The `Link: </assets/…>; rel=modulepreload` header: the matched routes' chunks. */
const LINKED_ASSET = /<(\/assets\/[^>]+)>/g;
/** Static imports in esbuild's minified output: `from"/assets/…"` and `import"/assets/…"`. */
const STATIC_IMPORT = /(?:from|import)\s*"(\/assets\/[^"]+)"/g;

/**
 * Every asset a page of `build` needs to render and hydrate: the scripts and stylesheets its HTML
 * names and its Link header preloads (as `server` renders it), and every script those import statically.
 */
export async function assetsOfPage(build: Build, server: { url: string }, pagePath: string): Promise<string[]> {
  const response = await fetch(new URL(pagePath, server.url));
  const html = await response.text();
  const found = new Set<string>();
  const pending = [...html.matchAll(ASSET_REFERENCE), ...(response.headers.get("link") ?? "").matchAll(LINKED_ASSET)].map((match) => match[1]);
  while (pending.length > 0) {
    const url = pending.pop() as string;
    if (found.has(url)) continue;
    found.add(url);
    const relative = build.manifest.files[url];
    if (!relative) throw new Error(`rolling-deploy: ${url} (on ${pagePath}) is not in the build's manifest`);
    if (!url.endsWith(".js")) continue;
    const code = readFileSync(path.join(build.dist, "client", relative), "utf8");
    pending.push(...[...code.matchAll(STATIC_IMPORT)].map((match) => match[1]));
  }
  return [...found].sort();
}

export interface Balancer {
  url: string;
  /** How many requests each upstream received, in the order given. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * A round-robin HTTP balancer on 127.0.0.1: each request (not connection: no upstream keep-alive)
 * goes to the next upstream; bodies stream both ways; X-Forwarded-For gets the client's address.
 */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  const counts = upstreams.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % upstreams.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(req.url ?? "/", upstreams[index]);
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, "x-forwarded-for": forwardedFor }, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("Bad gateway");
      else res.destroy();
    });
    // A client leaving mid-request ends the upstream request too.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface RollingDeployOptions {
  /** A Redis URL both builds share (REDIS_URL); without it each serves its own assets only. */
  redisUrl?: string;
  /** Further environment for both servers (ENABLE_DIAGNOSTIC_ROUTES, SENTRY_DSN…). */
  env?: Record<string, string>;
  /** Environment for one build only. */
  envA?: Record<string, string>;
  envB?: Record<string, string>;
}

export interface RollingDeploy {
  buildA: Build;
  buildB: Build;
  /** Build A's server, then build B's, started one after the other. */
  a: ServerProcess;
  b: ServerProcess;
  balancer: Balancer;
  /** Every asset a page needs, as `assetsOfPage`, for build "a" or "b". */
  assetsOf(build: "a" | "b", pagePath: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Build A's server, then build B's (as a rolling update starts them), and the balancer in front. */
/** Waits for /readyz, as an orchestrator does before it sends a replica traffic (with Redis: once its assets are shared); stops it if it never is. */
async function ready(server: ServerProcess): Promise<ServerProcess> {
  try {
    await until(async () => (await fetch(`${server.url}/readyz`)).status === 200, 10_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

export async function startRollingDeploy(options: RollingDeployOptions = {}): Promise<RollingDeploy> {
  const builds = { a: buildA(), b: buildB() };
  const shared = { ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}), ...options.env };
  const a = await ready(await startServerProcess({ ...shared, ...options.envA }, { dist: builds.a.dist }));
  let b: ServerProcess | undefined;
  try {
    b = await ready(await startServerProcess({ ...shared, ...options.envB }, { dist: builds.b.dist }));
    const balancer = await startBalancer([a.url, b.url]);
    const servers = { a, b };
    return {
      buildA: builds.a,
      buildB: builds.b,
      a,
      b,
      balancer,
      assetsOf: (build, pagePath) => assetsOfPage(builds[build], servers[build], pagePath),
      async close() {
        await balancer.close();
        await Promise.all([a.stop(), servers.b.stop()]);
      },
    };
  } catch (error) {
    await Promise.all([a.stop(), b?.stop()]);
    throw error;
  }
}
