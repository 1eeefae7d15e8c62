#!/usr/bin/env node
// CPU profile of the server under one benchmark's load: `node scripts/bench/profile.mjs <scenario>`
// with scenario ssr-off, ssr-on, ssr-floor, realistic-off, realistic-on, realistic-floor,
// realistic-data (the realistic group's page and its data request: run that group first),
// realistic-visitor, realistic-greeting (its small page reading the session, and without),
// realistic-visitor-redis (that page with SESSION_STORE=redis on a local redis-server), tunnel-1k-redis,
// tunnel-1k, tunnel-100k, relay-1k, relay-100k, koa-relay-1k, koa-relay-100k, startup-off or startup-on. Run `npm run bench`
// (or build into node_modules/.cache/outpost-bench) first. Prints self time by package and the
// hottest functions; the .cpuprofile is kept for Chrome DevTools. PROFILE_ROOT=<checkout> profiles
// that checkout's dist/ instead (an A/B with the navigation group's baseline builds).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BROWSER_UA, OUT, runWorker, sleep, startHelper, startServer } from "./lib/proc.mjs";
import { startRedis } from "./lib/redis-server.mjs";
import { OUT_APP, OUT_REL_APP, PAGE } from "./realistic.mjs";
import { SESSION_SECRET, sessionCookie } from "./session-cost.mjs";

const scenario = process.argv[2] ?? "ssr-off";
const seconds = Number(process.argv[3] ?? 10);
// Beside the build, not in it: every bench build empties its own directory.
const OUT_URL = `${pathToFileURL(process.env.PROFILE_ROOT ? path.join(process.env.PROFILE_ROOT, "dist") : OUT).href}/`;
const dir = path.join(`${OUT}-profiles`, `${scenario}-${Date.now()}`);

const ingest = await startHelper("fake-ingest.mjs");
const redis = scenario.endsWith("-redis") ? await startRedis() : undefined;
const redisEnv = redis ? { SESSION_STORE: "redis", REDIS_URL: redis.url } : {};
// The shared-state group's limit, never reached, so every envelope is counted and none refused.
const limitEnv = process.env.SENTRY_TUNNEL_RATE_LIMIT ? { SENTRY_TUNNEL_RATE_LIMIT: process.env.SENTRY_TUNNEL_RATE_LIMIT } : {};
const dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
const nodeFlags = ["--cpu-prof", `--cpu-prof-dir=${dir}`];
const realistic = scenario.startsWith("realistic");
const server =
  scenario === "ssr-floor"
    ? await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT }, { nodeFlags })
    : scenario === "realistic-floor"
      ? await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT_APP, BENCH_PAGE: PAGE }, { nodeFlags })
      : scenario.startsWith("relay") || scenario.startsWith("koa-relay")
        ? await startHelper(scenario.startsWith("koa") ? "floor-relay-koa.mjs" : "floor-relay.mjs", { INGEST_ORIGIN: ingest.origin }, { nodeFlags })
        : await startServer(scenario.endsWith("-off") ? {} : { SENTRY_DSN: dsn, SESSION_SECRET, ...redisEnv, ...limitEnv }, {
            nodeFlags,
            ...(realistic ? { outRel: OUT_REL_APP } : {}),
            ...(process.env.PROFILE_ROOT ? { root: process.env.PROFILE_ROOT, outRel: "dist" } : {}),
          });
const browser = { "user-agent": BROWSER_UA };
const buildId = () => JSON.parse(readFileSync(path.join(OUT_APP, "manifest.json"), "utf8")).buildId;
async function loadFor() {
  if (scenario.startsWith("ssr")) return { url: `${server.origin}/`, headers: browser, connections: 100 };
  if (scenario === "realistic-data") return { url: `${server.origin}/__data${PAGE}`, headers: { ...browser, "x-outpost-build": buildId() }, connections: 10 };
  if (scenario.startsWith("realistic-visitor") || scenario === "realistic-greeting") {
    const page = scenario === "realistic-greeting" ? "/greeting" : "/visitor";
    if (redis) await sleep(1_000);
    return { url: `${server.origin}${page}`, headers: { ...browser, cookie: await sessionCookie(server) }, connections: 50 };
  }
  if (realistic) return { url: `${server.origin}${PAGE}`, headers: browser, connections: 10 };
  return {
    url: `${server.origin}/monitoring?p=42`,
    method: "POST",
    headers: { "content-type": "application/x-sentry-envelope" },
    envelope: { dsn, size: scenario.endsWith("100k") ? 100 * 1024 : 1024 },
    connections: 10,
  };
}
const load = await loadFor();
// Warm-up and measured run both count: the profile covers the whole process life.
let requests = 1;
if (!scenario.startsWith("startup")) {
  const warm = await runWorker("load-worker.mjs", { ...load, durationSec: 2 });
  const run = await runWorker("load-worker.mjs", { ...load, durationSec: seconds });
  requests = warm.requests + run.requests;
  console.log(`${scenario}: ${Math.round(run.rps)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms`);
}
await server.stop();
await ingest.stop();
await redis?.stop();

// One file per thread; thread 0 is the main one (Sentry's ESM hooks add a loader thread).
const file = path.join(dir, readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort()[0]);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  self.set(node, (self.get(node) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function bucket({ callFrame: { url, functionName } }) {
  if (!url) return functionName; // (garbage collector), (program), (idle), native
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (url.startsWith(OUT_URL)) return "app (built src/)";
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node: internals";
  return url;
}
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const packages = new Map();
const functions = new Map();
for (const [node, us] of self) {
  add(packages, bucket(node), us);
  const { functionName, url, lineNumber } = node.callFrame;
  add(functions, `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(OUT_URL, "")}:${lineNumber + 1}`, us);
}
const print = (title, map, n) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    const perRequest = `${(us / requests).toFixed(1).padStart(6)} µs/req`;
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms ${perRequest}  ${key.slice(0, 140)}`);
  }
};
print(`self time by package (${(total / 1e6).toFixed(1)} s sampled, ${requests} requests): ${file}`, packages, 20);
print("hottest functions (self time)", functions, 30);
