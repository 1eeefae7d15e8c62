// Figure 7: a realistic page, a loader's 1,000 rows rendered as a
// table, ours with Sentry on (tracing off) against a bare node:http server rendering the same
// tree with the same React call; and the data request a navigation to that page makes.
// The page lives in a bench-only app (realistic-app/) built into its own directory, so the
// product's route table never holds it; the server is the product's, given that build's routes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildProduction } from "./lib/build.mjs";
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { pairedRatio, pairFigures } from "./lib/paired.mjs";
import { sessionCost } from "./session-cost.mjs";
import { CPU_NOTE, fetchBodies, LOAD_HEADER, loadRow, measureInterleaved, normalise } from "./lib/interleave.mjs";
import { BROWSER_UA, OUT_REL, ROOT, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, target } from "./lib/stats.mjs";

const APP_DIR = "scripts/bench/realistic-app";
// Inside the bench build's directory, which run.mjs empties and rebuilds first.
export const OUT_REL_APP = `${OUT_REL}/realistic`;
export const OUT_APP = path.join(ROOT, OUT_REL_APP);
export const PAGE = "/products";
const ROWS = 1_000;
const SENTRY_ON = "ours, Sentry on";
const DATA = "ours, Sentry on: data request";

export async function realistic({ connections, rounds, warmupSec, durationSec, paired, redisSessionRounds }) {
  console.log(`building the realistic app (${APP_DIR}) into ${OUT_REL_APP}/ ...`);
  buildProduction({ outRel: OUT_REL_APP, appDir: APP_DIR });
  await buildFloorTree({ appDir: APP_DIR, out: OUT_APP });
  const { buildId } = JSON.parse(readFileSync(path.join(OUT_APP, "manifest.json"), "utf8"));
  const ingest = await startHelper("fake-ingest.mjs");
  const servers = {
    floor: await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT_APP, BENCH_PAGE: PAGE }),
    "ours, Sentry off": await startServer({}, { outRel: OUT_REL_APP }),
    [SENTRY_ON]: await startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` }, { outRel: OUT_REL_APP }),
  };
  const targets = Object.fromEntries(Object.entries(servers).map(([name, proc]) => [name, { proc, url: `${proc.origin}${PAGE}` }]));
  targets[DATA] = {
    proc: servers[SENTRY_ON],
    url: `${servers[SENTRY_ON].origin}/__data${PAGE}`,
    headers: { "user-agent": BROWSER_UA, "x-outpost-build": buildId },
  };
  try {
    const bodies = await fetchBodies(targets);
    const same = normalise(bodies.floor) === normalise(bodies[SENTRY_ON]);
    const tableBytes = /<table>.*<\/table>/s.exec(bodies.floor)?.[0].length ?? 0;
    const dataRows = JSON.parse(bodies[DATA]).state?.data?.Products?.rows?.length;
    console.log(`realistic page: ${bodies.floor.length} B (table ${tableBytes} B), identical to ours with Sentry on once normalised: ${same ? "yes" : "NO"}; data request ${bodies[DATA].length} B, ${dataRows} rows`);
    const results = await measureInterleaved(targets, { connections, rounds, warmupSec, durationSec, pinned: true });

    const rows = [];
    const verdicts = [];
    const pairs = [];
    for (const conns of connections) {
      const floor = results[`floor|${conns}`];
      for (const name of Object.keys(targets)) rows.push(loadRow(name, conns, results[`${name}|${conns}`], floor));
      // Judged paired: the plain runs above swing by half between rounds on this shared VM.
      const pair = await pairedRatio([servers.floor, servers[SENTRY_ON]], { path: PAGE, connections: conns, ...paired });
      pairs.push(`${conns} connections: ${pairFigures(pair)}`);
      verdicts.push(target(`Realistic page (1,000 rows), Sentry on, ${conns} connections >= 0.90 × bare node:http`, pair.ratio >= 0.9, `${fmt.x(pair.ratio)} (paired)`));
    }
    const dataPairs = connections.map((conns) => [conns, results[`${DATA}|${conns}`].rps, results[`${SENTRY_ON}|${conns}`].rps]);
    verdicts.push(
      target(
        "Data request for the realistic page serves more req/s than its server render",
        dataPairs.every(([, data, page]) => data > page),
        dataPairs.map(([conns, data, page]) => `${fmt.int(data)} vs ${fmt.int(page)} req/s at ${conns} connections`).join(", "),
      ),
    );
    const session = await sessionCost({ outRel: OUT_REL_APP, paired, redisRounds: redisSessionRounds });
    return {
      title: `7. Realistic page: GET ${PAGE}, a loader's ${fmt.int(ROWS)} rows as a table`,
      header: LOAD_HEADER,
      rows,
      verdicts: [...verdicts, ...session.verdicts],
      notes: [
        `The page: a bench-only app (${APP_DIR}: root layout with header, nav and footer; the products route, whose loader makes ${fmt.int(ROWS)} rows of id, name, price and date for each request) built by \`node scripts/build.mjs\` with OUTPOST_APP_DIR into ${OUT_REL_APP}/, served by the product's server, whose createApp gets that build's routes. The floor (floor-ssr.mjs, BENCH_PAGE=${PAGE}) is bare node:http running the same loader and rendering the same tree with the same renderToPipeableStream call.`,
        `Response bodies: floor ${bodies.floor.length} B (the table ${tableBytes} B, the hydration data script the rest), ours with Sentry off ${bodies["ours, Sentry off"].length} B, with Sentry on ${bodies[SENTRY_ON].length} B. Identical to the floor once nonces and timestamps are normalised (and, Sentry on, without trace tags, DSN and feedback flag): ${same ? "yes" : "NO"}.`,
        `Data request: GET /__data${PAGE} with X-Outpost-Build, what a client navigation to the page fetches: ${bodies[DATA].length} B of JSON (${dataRows} rows). Its "× floor" compares it with the floor's page render.`,
        "Every server here is pinned to CPU 0 and the load generator to CPU 1 (taskset): unpinned, a server's runs at 100 connections fell into two modes about 1.6× apart (the floor's too: 66 and 115 req/s), as the scheduler did or did not put the load generator, busy reading 100 streams of 180 KB, on the server's core.",
        `The target is judged paired, as the SSR group's CPU target is: the floor and ours (Sentry on) pinned to CPU 0 and loaded at once, by one autocannon each on CPU 1 (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s after a 2 s warm-up), so ours ÷ floor req/s is the floor's CPU per page ÷ ours, whatever the VM's speed in that moment. Pinned but loaded one after the other (the table above), the same servers' rounds still differed by up to half. Floor ÷ ours req/s per round, then each one's CPU per page and the pair's share of CPU 0: ${pairs.join("; ")}.`,
        session.note,
        CPU_NOTE,
      ],
    };
  } finally {
    await Promise.all([...Object.values(servers), ingest].map((proc) => proc.stop()));
  }
}

