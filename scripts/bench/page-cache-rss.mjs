// The in-process page cache's memory under a flood of distinct query strings (issue 49, point
// 12; decision 0103). Each server is warmed up, collected (a full GC) and measured; then flooded,
// measured as it settles, collected again and measured. The cache's share is a row's growth
// after the flood less the uncached row's: what the cache keeps, held to 1.25× PAGE_CACHE_MAX_MB.
// "Nothing kept" is the same page with a 1-byte budget: the miss path alone.
// A measurement, not a test: `node scripts/bench/page-cache-rss.mjs [count] [--no-build]
// [--arena=N] [--node-flag=F …]` (MALLOC_ARENA_MAX, Node or V8 flags for the servers).
import { readFileSync } from "node:fs";
import { buildProduction } from "./lib/build.mjs";
import { collectGarbage } from "./lib/inspector.mjs";
import { freePort, OUT_REL, rssBytes, sleep, startServer } from "./lib/proc.mjs";

const OUT_REL_RSS = `${OUT_REL}/page-cache-rss`;
const COUNT = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 20_000);
const ARENA = process.argv.find((arg) => arg.startsWith("--arena="))?.slice("--arena=".length);
const NODE_FLAGS = process.argv.filter((arg) => arg.startsWith("--node-flag=")).map((arg) => arg.slice("--node-flag=".length));
const CONNECTIONS = 8;
const WARM_UP = 200;
const MiB = 1024 * 1024;
const CACHED = "/diagnostics/page-cache";

if (!process.argv.includes("--no-build")) buildProduction({ outRel: OUT_REL_RSS });

/** RSS once the process has settled: the lowest of a few samples. */
async function settledRss(pid) {
  const samples = [];
  for (let i = 0; i < 10; i++) {
    await sleep(200);
    samples.push(rssBytes(pid));
  }
  return Math.min(...samples);
}

/** Resident bytes of glibc's main malloc arena (the `[heap]` mapping): Buffers' and native memory. */
function mallocArena(pid) {
  const smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
  const at = smaps.search(/ \[heap\]\n/);
  if (at < 0) return 0;
  return Number(/\nRss:\s+(\d+) kB/.exec(smaps.slice(at))?.[1] ?? 0) * 1024;
}

/** `repeat` requests for each of `count` distinct query strings, over CONNECTIONS connections. */
async function flood(origin, path, count, { from = 0, repeat = 1 } = {}) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = from + next++;
      for (let r = 0; r < repeat; r++) {
        const response = await fetch(`${origin}${path}?flood=${i}-${"x".repeat(64)}`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** After a full GC: RSS, V8's heap used and committed, Node's external memory, malloc's main arena. */
async function collected(server, metricsPort, inspectPort) {
  await collectGarbage(inspectPort);
  const rss = await settledRss(server.pid);
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const read = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, "m").exec(text)?.[1]);
  return {
    rss,
    heapUsed: read("nodejs_heap_size_used_bytes"),
    heapTotal: read("nodejs_heap_size_total_bytes"),
    external: read("nodejs_external_memory_bytes"),
    arena: mallocArena(server.pid),
  };
}

const mib = (bytes) => (bytes / MiB).toFixed(1);
const signed = (bytes) => `${bytes < 0 ? "" : "+"}${mib(bytes)}`;

async function measure({ label, env, path, repeat = 1 }) {
  const metricsPort = await freePort();
  const inspectPort = await freePort();
  const server = await startServer(
    { ENABLE_DIAGNOSTIC_ROUTES: "true", METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1", ...(ARENA ? { MALLOC_ARENA_MAX: ARENA } : {}), ...env },
    { outRel: OUT_REL_RSS, nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`, ...NODE_FLAGS] },
  );
  try {
    await flood(server.origin, path, WARM_UP, { from: 10_000_000 });
    const before = await collected(server, metricsPort, inspectPort);
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 50);
    await flood(server.origin, path, COUNT, { repeat });
    clearInterval(sampler);
    const settled = await settledRss(server.pid);
    const after = await collected(server, metricsPort, inspectPort);
    const cacheStatus = (await fetch(`${server.origin}${path}?flood=0-${"x".repeat(64)}`)).headers.get("cache-status");
    const growth = after.rss - before.rss;
    console.log(
      `${label.padEnd(34)} RSS ${mib(before.rss)} → peak ${mib(peak)}, settled ${mib(settled)}; after a full GC ${mib(after.rss)} MiB (${signed(growth)}): ` +
        `heap used ${mib(after.heapUsed)} (${signed(after.heapUsed - before.heapUsed)}), heap committed ${mib(after.heapTotal)} (${signed(after.heapTotal - before.heapTotal)}), ` +
        `external ${mib(after.external)} (${signed(after.external - before.external)}), malloc arena ${mib(after.arena)} (${signed(after.arena - before.arena)})  [${cacheStatus ?? "not cached"}]`,
    );
    return { rss: growth, heap: after.heapUsed - before.heapUsed };
  } finally {
    await server.stop();
  }
}

const ROWS = [
  { label: "uncached (/diagnostics/form)", env: {}, path: "/diagnostics/form" },
  { label: "nothing kept (1-byte budget)", env: { PAGE_CACHE_MAX_MB: String(1 / MiB) }, path: CACHED, budgetMb: 0 },
  { label: "PAGE_CACHE_MAX_MB=1", env: { PAGE_CACHE_MAX_MB: "1" }, path: CACHED, budgetMb: 1 },
  { label: "PAGE_CACHE_MAX_MB=16", env: { PAGE_CACHE_MAX_MB: "16" }, path: CACHED, budgetMb: 16 },
  { label: "PAGE_CACHE_MAX_MB=16, each URL twice", env: { PAGE_CACHE_MAX_MB: "16" }, path: CACHED, budgetMb: 16, repeat: 2 },
];

console.log(`${COUNT} distinct query strings, ${CONNECTIONS} connections${ARENA ? `, MALLOC_ARENA_MAX=${ARENA}` : ""} ${NODE_FLAGS.join(" ")}; MiB`);
const [uncached, ...cached] = ROWS;
const baseline = await measure(uncached);
const grown = [];
for (const row of cached) grown.push([row, await measure(row)]);
// RSS differs by ±1.5 MiB between processes for the same work; V8's heap used is exact.
console.log("\nthe cache's share (growth after a full GC, less the uncached flood's), against 1.25× the budget:");
for (const [row, growth] of grown) {
  const bound = 1.25 * row.budgetMb * MiB;
  const share = growth.rss - baseline.rss;
  console.log(
    `  ${row.label.padEnd(36)} RSS ${signed(share)} MiB, heap used ${signed(growth.heap - baseline.heap)} MiB` +
      ` (bound ${mib(bound)} MiB${row.budgetMb > 0 ? `: ${share <= bound ? "within" : "OVER"}` : ""})`,
  );
}
