#!/usr/bin/env node
// A/B of two SSR servers' own cost per page, steadier than `npm run bench`'s req/s on a noisy
// shared VM (see lib/paired.mjs).
//   node scripts/bench/pair.mjs A,B [rounds=3] [seconds=5] [connections=100]
// A and B: floor, koa-floor, off (ours, Sentry off), on (ours, Sentry on), or ours with
// environment variables, e.g. LOG_LEVEL=info or NODE_OPTIONS=--max-semi-space-size=4 (join
// several with &), or build:<dir>[+on] for another build's server (e.g. an A/B of a change:
// OUTPOST_OUT_DIR=<dir> node scripts/build.mjs first; <dir> relative to the checkout, "+on"
// for Sentry on). Needs taskset (util-linux) and the bench build (npm run bench, or
// OUTPOST_OUT_DIR=node_modules/.cache/outpost-bench node scripts/build.mjs).
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { pairedRatio } from "./lib/paired.mjs";
import { OUT, startHelper, startServer } from "./lib/proc.mjs";

const [a, b] = (process.argv[2] ?? "floor,off").split(",");
const rounds = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 5);
const connections = Number(process.argv[5] ?? 100);

await buildFloorTree();
const ingest = await startHelper("fake-ingest.mjs");
const HELPERS = { floor: "floor-ssr.mjs", "koa-floor": "floor-ssr-koa.mjs" };

function start(name) {
  if (HELPERS[name]) return startHelper(HELPERS[name], { BENCH_OUT: OUT });
  if (name.startsWith("build:")) {
    const [outRel, sentry] = name.slice(6).split("+");
    return startServer(sentry === "on" ? { SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` } : {}, { outRel });
  }
  if (name === "off") return startServer();
  if (name === "on") return startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` });
  return startServer(Object.fromEntries(name.split("&").map((pair) => pair.split(/=(.*)/s).slice(0, 2))));
}

const servers = [await start(a), await start(b)];
try {
  const { ratio } = await pairedRatio(servers, {
    rounds,
    seconds,
    connections,
    onRound: (ra, rb) =>
      console.log(`${a}: ${Math.round(ra.rps)} req/s   ${b}: ${Math.round(rb.rps)} req/s   ${b} / ${a}: ${(rb.rps / ra.rps).toFixed(3)}`),
  });
  console.log(`median ${b} / ${a}: ${ratio.toFixed(3)}`);
} finally {
  await Promise.all([...servers, ingest].map((proc) => proc.stop()));
}
