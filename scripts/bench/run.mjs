#!/usr/bin/env node
// `npm run bench`: builds the production server, runs every figure against its floor, prints
// PASS/MISS per target and writes the table to BENCHMARKS.md.
//   --quick          short runs to check the harness (BENCHMARKS.md is left alone)
//   --only=a,b       some groups only: ssr, realistic, tunnel, tunnel-scrub, memory, payload, startup, navigation, spool, shared, assets, cache, events (file left alone)
import os from "node:os";
import path from "node:path";
import { cache } from "./cache.mjs";
import { eventStreams } from "./event-streams.mjs";
import { buildProduction } from "./lib/build.mjs";
import { CHROMIUM_PATH, hasChromium } from "./lib/chromium.mjs";
import { memory } from "./memory.mjs";
import { navigation } from "./navigation.mjs";
import { payload } from "./payload.mjs";
import { realistic } from "./realistic.mjs";
import { serverArgs } from "../server-command.mjs";
import { OUT_REL, ROOT } from "./lib/proc.mjs";
import { renderResults, writeBenchmarks } from "./lib/report.mjs";
import { sharedAssets } from "./shared-assets.mjs";
import { sharedState } from "./shared-state.mjs";
import { spool } from "./spool.mjs";
import { ssr } from "./ssr.mjs";
import { startup } from "./startup.mjs";
import { tunnel, tunnelScrub } from "./tunnel.mjs";

const quick = process.argv.includes("--quick");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
// A benchmark build never uploads source maps, whatever the shell has set.
delete process.env.SENTRY_AUTH_TOKEN;

const speed = quick ? { rounds: 1, warmupSec: 1, durationSec: 3 } : { rounds: 3, warmupSec: 3, durationSec: 10 };
const settings = {
  ssr: { connections: [10, 100], ...speed, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5, connections: 50 } },
  realistic: { connections: [10, 100], ...speed, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 8 }, redisSessionRounds: quick ? 1 : 5 },
  tunnel: { sizes: [1024, 100 * 1024], connections: 10, ...speed, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5 } },
  "tunnel-scrub": { connections: 10, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5 } },
  spool: { size: 1024, connections: 10, ...speed },
  memory: { rounds: quick ? 1 : 3, concurrentRounds: quick ? 1 : 7, leak: { total: quick ? 10_000 : 100_000, first: 1_000, steps: 9, connections: 100 } },
  payload: {},
  startup: { spawns: quick ? 3 : 7, edits: quick ? 1 : 3 },
  navigation: { ...speed, pairRounds: quick ? 1 : 5, seconds: quick ? 2 : 5, connections: 100 },
  shared: { connections: 50, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5 } },
  assets: { requests: quick ? 300 : 2_000 },
  events: { idle: 5_000, subscribers: 1_000, publishes: quick ? 5 : 20, holding: [100, 1_000], paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5 } },
  cache: { connections: 50, rounds: quick ? 1 : 3, warmupSec: quick ? 1 : 2, durationSec: quick ? 3 : 5, paired: { rounds: quick ? 1 : 3, seconds: quick ? 2 : 5 } },
};
const groups = { ssr, realistic, tunnel, "tunnel-scrub": tunnelScrub, spool, memory, payload, startup, navigation, shared: sharedState, assets: sharedAssets, cache, events: eventStreams };

// Said at once rather than when the first browser group starts, twenty minutes in.
if ((!only || only.includes("startup")) && !hasChromium) {
  console.error(`the startup group drives Chromium (Fast Refresh), and there is none at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}

const started = Date.now();
console.log("building the production server (node scripts/build.mjs) ...");
buildProduction();

const results = [];
for (const [name, run] of Object.entries(groups)) {
  if (only && !only.includes(name)) continue;
  console.log(`\n== ${name} ==`);
  results.push(await run(settings[name]));
}

const describe = `SSR: GET / with a browser User-Agent (Chrome 124 on Linux), ${settings.ssr.connections.join(" and ")} connections, ` +
  `${speed.warmupSec} s warm-up + ${speed.durationSec} s measured, ${speed.rounds} runs. ` +
  `Tunnel: ${settings.tunnel.connections} connections, same timing. Servers: production build (\`node scripts/build.mjs\` into ${OUT_REL}/), ` +
  `\`node ${serverArgs("./…").join(" ")}\` (scripts/server-command.mjs, as the image runs it), NODE_ENV=production, LOG_LEVEL=warn, SENTRY_TUNNEL_RATE_LIMIT=0; ` +
  "Sentry on = SENTRY_DSN pointing at the local fake ingest, SENTRY_TRACES_SAMPLE_RATE unset (0). autocannon 9, pipelining 1.";
const markdown = renderResults({
  meta: {
    date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    os: `${os.type()} ${os.release()}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    minutes: ((Date.now() - started) / 60_000).toFixed(1),
  },
  settings: describe,
  groups: results,
});
console.log(`\n${markdown}`);
if (!quick && !only) {
  writeBenchmarks(path.join(ROOT, "BENCHMARKS.md"), markdown);
  console.log("wrote BENCHMARKS.md");
}
