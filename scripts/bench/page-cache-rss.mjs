// The in-process page cache's memory under a flood of distinct query strings (issue 49, point
// 12): the server's RSS after 20,000 misses of /diagnostics/page-cache at PAGE_CACHE_MAX_MB=1
// and 16, beside the same flood of a page that is never cached. A measurement, not a test:
// `node scripts/bench/page-cache-rss.mjs [count]` prints the figures; `--no-build` reuses the build.
import { buildProduction } from "./lib/build.mjs";
import { collectGarbage } from "./lib/inspector.mjs";
import { freePort, OUT_REL, rssBytes, sleep, startServer } from "./lib/proc.mjs";

const OUT_REL_RSS = `${OUT_REL}/page-cache-rss`;
const COUNT = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 20_000);
const CONNECTIONS = 8;
const MiB = 1024 * 1024;

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

async function flood(origin, path, count) {
  let next = 0;
  let peakBody = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${origin}${path}?flood=${i}-${"x".repeat(64)}`);
      const body = await response.arrayBuffer();
      peakBody = Math.max(peakBody, body.byteLength);
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return peakBody;
}

/** V8's heap in use and Node's external memory (Buffers), from the server's metrics, after a full GC. */
async function heldBytes(metricsPort, inspectPort) {
  await collectGarbage(inspectPort);
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const read = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, "m").exec(text)?.[1]);
  return { heap: read("nodejs_heap_size_used_bytes"), external: read("nodejs_external_memory_bytes") };
}

async function measure(label, env, path) {
  const metricsPort = await freePort();
  const inspectPort = await freePort();
  const server = await startServer(
    { ENABLE_DIAGNOSTIC_ROUTES: "true", METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1", ...env },
    { outRel: OUT_REL_RSS, nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`] },
  );
  try {
    await flood(server.origin, path, 200);
    const baseline = await settledRss(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 50);
    const bodyBytes = await flood(server.origin, path, COUNT);
    clearInterval(sampler);
    const after = await settledRss(server.pid);
    const held = await heldBytes(metricsPort, inspectPort);
    const afterGc = await settledRss(server.pid);
    const cacheStatus = (await fetch(`${server.origin}${path}?flood=0-${"x".repeat(64)}`)).headers.get("cache-status");
    console.log(
      `${label.padEnd(28)} body ${bodyBytes} B  RSS baseline ${(baseline / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, settled ${(after / MiB).toFixed(1)} MiB (+${((after - baseline) / MiB).toFixed(1)} MiB); after a full GC: RSS ${(afterGc / MiB).toFixed(1)} MiB, heap used ${(held.heap / MiB).toFixed(1)} MiB, external ${(held.external / MiB).toFixed(1)} MiB  [${cacheStatus ?? "not cached"}]`,
    );
  } finally {
    await server.stop();
  }
}

console.log(`${COUNT} distinct query strings, ${CONNECTIONS} connections`);
await measure("uncached (/diagnostics/form)", {}, "/diagnostics/form");
for (const mb of ["1", "16"]) await measure(`PAGE_CACHE_MAX_MB=${mb}`, { PAGE_CACHE_MAX_MB: mb }, "/diagnostics/page-cache");
