// Figure 1: SSR throughput and latency for GET /, ours (Sentry off and on) against the floor.
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { CPU_NOTE, fetchBodies, LOAD_HEADER, loadRow, measureInterleaved, normalise } from "./lib/interleave.mjs";
import { pairedRatio } from "./lib/paired.mjs";
import { OUT, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, target } from "./lib/stats.mjs";

// The target: our own middleware, routing, headers, metrics and payload may cost at most 15 % more
// CPU per page than the same render as a bare Koa app's only middleware.
const MAX_CPU_OVER_KOA = 1.15;

export async function ssr({ connections, rounds, warmupSec, durationSec, paired }) {
  await buildFloorTree();
  const ingest = await startHelper("fake-ingest.mjs");
  const servers = {
    floor: await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT }),
    "Koa floor": await startHelper("floor-ssr-koa.mjs", { BENCH_OUT: OUT }),
    "ours, Sentry off": await startServer(),
    "ours, Sentry on": await startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` }),
  };
  const targets = Object.fromEntries(Object.entries(servers).map(([name, proc]) => [name, { proc, url: `${proc.origin}/` }]));
  try {
    const sizes = await fetchBodies(targets);
    const same = normalise(sizes.floor) === normalise(sizes["ours, Sentry off"]);
    const sameOn = normalise(sizes.floor) === normalise(sizes["ours, Sentry on"]);
    const results = await measureInterleaved(targets, { connections, rounds, warmupSec, durationSec });

    const rows = [];
    const verdicts = [];
    for (const conns of connections) {
      const floor = results[`floor|${conns}`];
      for (const name of Object.keys(targets)) rows.push(loadRow(name, conns, results[`${name}|${conns}`], floor));
    }
    // CPU per page beside the Koa floor's: both pinned to one core and loaded at once, so the
    // inverse of their req/s ratio is their CPU ratio whatever else the machine does.
    const pairs = [];
    for (const name of ["ours, Sentry off", "ours, Sentry on"]) {
      const { ratio, rates } = await pairedRatio([servers["Koa floor"], servers[name]], paired);
      pairs.push(`${name}: ${rates.map(([koa, ours]) => `${fmt.int(koa)} ÷ ${fmt.int(ours)}`).join(" / ")} req/s, median ${fmt.x(1 / ratio)}`);
      verdicts.push(target(`SSR /, ${name}: CPU per page <= ${MAX_CPU_OVER_KOA} × the Koa floor's`, 1 / ratio <= MAX_CPU_OVER_KOA, fmt.x(1 / ratio)));
    }
    return {
      title: "1. SSR: GET /",
      header: LOAD_HEADER,
      rows,
      verdicts,
      notes: [
        `Response bodies: floor ${sizes.floor.length} B, ours with Sentry off ${sizes["ours, Sentry off"].length} B, with Sentry on ${sizes["ours, Sentry on"].length} B ` +
          `(${sizes["ours, Sentry on"].includes('name="sentry-trace"') ? "sentry-trace and baggage meta tags, " : ""}the DSN and feedback flag in the runtime config). ` +
          `Identical to the floor once nonces and timestamps are normalised: Sentry off ${same ? "yes" : "NO"}; Sentry on, also without trace tags, DSN and feedback flag, ${sameOn ? "yes" : "NO"}.`,
        "The floor sends only Content-Type and Cache-Control; ours adds the CSP and security headers.",
        "Koa floor: the floor's render as the only middleware of a bare Koa app (floor-ssr-koa.mjs): its gap to the floor is Koa's own cost per page, the rest of ours is our middleware, routing, headers, metrics and payload.",
        `CPU per page beside the Koa floor (the target): the Koa floor and ours pinned to one core and loaded at once by one autocannon each on the other core (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s at ${paired.connections} connections after a 2 s warm-up), so Koa floor req/s ÷ ours is ours CPU ÷ the Koa floor's. ${pairs.join("; ")}.`,
        CPU_NOTE,
      ],
    };
  } finally {
    await Promise.all([...Object.values(servers), ingest].map((proc) => proc.stop()));
  }
}
