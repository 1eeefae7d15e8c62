#!/usr/bin/env node
// A/B of two SSR servers' own cost per page, steadier than `npm run bench`'s req/s on a noisy
// shared VM (see lib/paired.mjs).
//   node scripts/bench/pair.mjs A,B [rounds=3] [seconds=5] [connections=100]
// A and B: floor, koa-floor, off (ours, Sentry off), on (ours, Sentry on), or ours with
// environment variables, e.g. LOG_LEVEL=info or NODE_OPTIONS=--single-threaded-gc (join
// several with &), or build:<dir>[+on] for another build's server (e.g. an A/B of a change:
// OUTPOST_OUT_DIR=<dir> node scripts/build.mjs first; <dir> relative to the checkout, "+on"
// for Sentry on). Needs taskset (util-linux) and the bench build (npm run bench, or
// OUTPOST_OUT_DIR=node_modules/.cache/outpost-bench node scripts/build.mjs).
// PAIR_APP=realistic: the realistic group's build and page instead (run that group first).
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { pairedRatio } from "./lib/paired.mjs";
import { OUT, OUT_REL, startHelper, startServer } from "./lib/proc.mjs";
import { OUT_APP, OUT_REL_APP, PAGE } from "./realistic.mjs";

const [a, b] = (process.argv[2] ?? "floor,off").split(",");
const rounds = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 5);
const connections = Number(process.argv[5] ?? 100);

const realistic = process.env.PAIR_APP === "realistic";
const build = realistic ? { out: OUT_APP, outRel: OUT_REL_APP, page: PAGE } : { out: OUT, outRel: OUT_REL, page: "/" };
if (!realistic) await buildFloorTree();
const ingest = await startHelper("fake-ingest.mjs");
const HELPERS = { floor: "floor-ssr.mjs", "koa-floor": "floor-ssr-koa.mjs" };

function start(name) {
  if (HELPERS[name]) return startHelper(HELPERS[name], { BENCH_OUT: build.out, BENCH_PAGE: build.page });
  const sentry = { SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` };
  if (name.startsWith("build:")) {
    const [outRel, mode] = name.slice(6).split("+");
    return startServer(mode === "on" ? sentry : {}, { outRel });
  }
  const options = { outRel: build.outRel };
  if (name === "off") return startServer({}, options);
  if (name === "on") return startServer(sentry, options);
  return startServer(Object.fromEntries(name.split("&").map((pair) => pair.split(/=(.*)/s).slice(0, 2))), options);
}

const servers = [await start(a), await start(b)];
try {
  const { ratio } = await pairedRatio(servers, {
    path: build.page,
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
