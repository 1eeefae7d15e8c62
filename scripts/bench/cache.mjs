// Figure 8: render once, serve many. The realistic page (a loader's 1,000 rows) kept by the page
// cache beside the same page rendered for each request, and beside bare node:http sending the
// same bytes; a prerendered / and the /healthz probe beside bare node:http sending their bytes. Every target is paired
// (lib/paired.mjs). The pages live in a bench-only app (cache-app/) that re-exports the
// realistic app's modules, built into its own directory as the realistic group's is.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildProduction } from "./lib/build.mjs";
import { measureInterleaved } from "./lib/interleave.mjs";
import { cpuRatio, pairedRatio, pairFigures } from "./lib/paired.mjs";
import { BROWSER_UA, OUT_REL, ROOT, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, median, target } from "./lib/stats.mjs";

const APP_DIR = "scripts/bench/cache-app";
const OUT_REL_APP = `${OUT_REL}/cache`;
const RENDERED = "/products";
const CACHED = "/products-cached";
const PRERENDERED = "/";
const PROBE = "/healthz";
// The uncached page's figure is taken as the realistic group's table takes it, to sit beside it.
const PLAIN_CONNECTIONS = 10;

export async function cache({ connections, rounds, warmupSec, durationSec, paired }) {
  console.log(`building the cache app (${APP_DIR}) into ${OUT_REL_APP}/ ...`);
  buildProduction({ outRel: OUT_REL_APP, appDir: APP_DIR });
  // Two servers of one build: a pair on one server would share its event loop, not a core.
  const rendered = await startServer({}, { outRel: OUT_REL_APP });
  const cached = await startServer({}, { outRel: OUT_REL_APP });
  const pagesDir = mkdtempSync(path.join(tmpdir(), "outpost-bench-pages-"));
  let floor;
  try {
    // The first request renders and keeps the page; the second is a hit, the bytes every hit sends.
    await (await get(cached, CACHED)).arrayBuffer();
    const bodies = { cached: await get(cached, CACHED), prerendered: await get(rendered, PRERENDERED), rendered: await get(rendered, RENDERED), probe: await get(rendered, PROBE) };
    const probeHeaders = { type: bodies.probe.headers.get("content-type"), cacheControl: bodies.probe.headers.get("cache-control") };
    // Only an answer from the cache carries Age: without it the pair would measure two renders.
    if (!bodies.cached.headers.has("age")) throw new Error(`${CACHED} was not answered from the page cache (no Age header)`);
    for (const [name, response] of Object.entries(bodies)) bodies[name] = Buffer.from(await response.arrayBuffer());
    const files = { [CACHED]: path.join(pagesDir, "cached.html"), [PRERENDERED]: path.join(pagesDir, "prerendered.html"), [PROBE]: { file: path.join(pagesDir, "probe.json"), ...probeHeaders } };
    writeFileSync(files[CACHED], bodies.cached);
    writeFileSync(files[PRERENDERED], bodies.prerendered);
    writeFileSync(files[PROBE].file, bodies.probe);
    floor = await startHelper("floor-static.mjs", { BENCH_PAGES: JSON.stringify(files) });
    console.log(`pages: ${RENDERED} ${bodies.rendered.length} B rendered, ${CACHED} ${bodies.cached.length} B kept, ${PRERENDERED} ${bodies.prerendered.length} B prerendered`);

    const plain = await measureInterleaved(
      { uncached: { proc: rendered, url: `${rendered.origin}${RENDERED}` } },
      { connections: [PLAIN_CONNECTIONS], rounds, warmupSec, durationSec, pinned: true },
    );
    const uncached = plain[`uncached|${PLAIN_CONNECTIONS}`];
    const recorded = recordedRealisticFigure();
    const uncachedLine = `uncached ${RENDERED}, Sentry off, ${PLAIN_CONNECTIONS} connections, alone on CPU 0: ${fmt.int(uncached.rps)} req/s (${uncached.runs.join(" / ")}), ${fmt.int(uncached.cpuUs)} µs CPU per page; BENCHMARKS.md's realistic group, ours with Sentry off: ${recorded ?? "no figure recorded"}`;
    console.log(uncachedLine);

    const options = { connections, ...paired };
    const hitPair = await pagePair([rendered, RENDERED], [cached, CACHED], options);
    const cachedFloorPair = await pagePair([floor, CACHED], [cached, CACHED], options);
    const prerenderedFloorPair = await pagePair([floor, PRERENDERED], [rendered, PRERENDERED], options);
    const probeFloorPair = await pagePair([floor, PROBE], [rendered, PROBE], options);
    const verdicts = [
      target(`Page cache: the realistic page (1,000 rows) kept, ${connections} connections >= 20 × the same page rendered`, hitPair.speed >= 20, judged(hitPair)),
      target(`Page cache: the kept realistic page, ${connections} connections >= 0.50 × bare node:http sending its bytes`, cachedFloorPair.speed >= 0.5, judged(cachedFloorPair)),
      target(`Prerendered /, ${connections} connections >= 0.50 × bare node:http sending its bytes`, prerenderedFloorPair.speed >= 0.5, judged(prerenderedFloorPair)),
      target(`${PROBE}, ${connections} connections >= 0.60 × bare node:http sending its bytes`, probeFloorPair.speed >= 0.6, judged(probeFloorPair)),
    ];
    const rows = [
      pairRow(`${RENDERED} rendered`, `${CACHED} kept`, hitPair),
      pairRow(`floor: ${CACHED}'s bytes`, `${CACHED} kept`, cachedFloorPair),
      pairRow(`floor: ${PRERENDERED}'s bytes`, `${PRERENDERED} prerendered`, prerenderedFloorPair),
      pairRow(`floor: ${PROBE}'s bytes`, `${PROBE} probe`, probeFloorPair),
    ];
    return {
      title: "8. Render once, serve many: the page cache and prerendering",
      header: ["a", "b", "a req/s", "b req/s", "a CPU µs/req", "b CPU µs/req", "b ÷ a req/s", "a ÷ b CPU per request (judged)"],
      rows,
      verdicts,
      notes: [
        `The pages: a bench-only app (${APP_DIR}, re-exporting the realistic app's layout and pages) built with OUTPOST_APP_DIR into ${OUT_REL_APP}/: ${RENDERED} renders the 1,000 rows for each request (${bodies.rendered.length} B); ${CACHED}, the same page and loader with \`cache = { maxAge: 3600 }\`, is kept by the page cache in process (${bodies.cached.length} B; one request fills it before the runs); ${PRERENDERED} (the small home page, ${bodies.prerendered.length} B) declares \`prerender = true\` and is served from the build's prerendered/; ${PROBE} (${bodies.probe.length} B) is the liveness probe. Servers: two of that build, Sentry off.`,
        "Floor: floor-static.mjs, bare node:http sending each page's bytes as one of our answers had them (a fixed buffer, Content-Type, Cache-Control and Content-Length only); ours also makes a fresh nonce, the CSP and security headers, and an ETag (the probe: the security headers), and logs and measures every request.",
        `Each pair: a and b pinned to CPU 0 and loaded at once by one autocannon each on CPU 1 (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s at ${connections} connections after a 2 s warm-up); the table gives the medians. The targets are judged by CPU per request (a's ÷ b's, the median of the rounds), which is what the paired req/s ratio shows only while the shared core is the limit: a cached page or a prerendered one costs so little that the two load generators on CPU 1 are the limit instead (CPU 0 well under 100 % used), and the req/s ratio then shows how fairly they share CPU 1, not what the servers cost. Per round: ${[hitPair, cachedFloorPair, prerenderedFloorPair, probeFloorPair].map(pairFigures).join("; ")}.`,
        `The uncached page beside today's figure: ${uncachedLine}.`,
      ],
    };
  } finally {
    await Promise.all([rendered, cached, floor].filter(Boolean).map((proc) => proc.stop()));
    rmSync(pagesDir, { recursive: true, force: true });
  }
}

const get = (server, page) => fetch(`${server.origin}${page}`, { headers: { "user-agent": BROWSER_UA } });

/** Two servers loaded at once, each at its own page: b ÷ a req/s. */
async function pagePair([a, pageA], [b, pageB], options) {
  const pages = new Map([
    [a, pageA],
    [b, pageB],
  ]);
  const input = (server) => ({ url: `${server.origin}${pages.get(server)}`, headers: { "user-agent": BROWSER_UA } });
  const pair = await pairedRatio([a, b], { ...options, input });
  return { ...pair, speed: cpuRatio(pair) };
}

/** A target's figures: judged by CPU per request, the paired req/s and the core's use beside it. */
function judged({ speed, ratio, busy }) {
  return `${fmt.x(speed)} by CPU per request (paired req/s ${fmt.x(ratio)}, CPU 0 ${Math.round(median(busy) * 100)} % used)`;
}

function pairRow(a, b, { rates, cpu, ratio, speed }) {
  const at = (list, i) => median(list.map((pair) => pair[i]));
  return [a, b, fmt.int(at(rates, 0)), fmt.int(at(rates, 1)), fmt.int(at(cpu, 0)), fmt.int(at(cpu, 1)), fmt.x(ratio), fmt.x(speed)];
}

/** The realistic group's last recorded req/s for ours, Sentry off, at PLAIN_CONNECTIONS, from BENCHMARKS.md. */
function recordedRealisticFigure() {
  const file = path.join(ROOT, "BENCHMARKS.md");
  if (!existsSync(file)) return undefined;
  const section = readFileSync(file, "utf8").split(/^### 7\. /m)[1]?.split(/^### /m)[0] ?? "";
  const figure = new RegExp(`^\\| ours, Sentry off \\| ${PLAIN_CONNECTIONS} \\| ([\\d,]+) \\|`, "m").exec(section)?.[1];
  return figure && `${figure} req/s`;
}
