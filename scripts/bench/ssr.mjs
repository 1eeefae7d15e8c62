// Figure 1: SSR throughput and latency for GET /, ours (Sentry off and on) against the floor.
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { CPU_NOTE, fetchBodies, LOAD_HEADER, loadRow, measureInterleaved, normalise } from "./lib/interleave.mjs";
import { OUT, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, target } from "./lib/stats.mjs";

export async function ssr({ connections, rounds, warmupSec, durationSec }) {
  await buildFloorTree();
  const ingest = await startHelper("fake-ingest.mjs");
  const servers = {
    floor: await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT }),
    "Koa floor (context)": await startHelper("floor-ssr-koa.mjs", { BENCH_OUT: OUT }),
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
      for (const [name, min] of [["ours, Sentry off", 0.85], ["ours, Sentry on", 0.75]]) {
        const ratio = results[`${name}|${conns}`].rps / floor.rps;
        verdicts.push(target(`SSR ${name}, ${conns} connections >= ${min} × floor`, ratio >= min, fmt.x(ratio)));
      }
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
        "Koa floor: the floor's render as the only middleware of a bare Koa app (floor-ssr-koa.mjs), for context: its gap to the floor is Koa's own cost per page, the rest of ours is our middleware and page handler. No target is judged on it.",
        CPU_NOTE,
      ],
    };
  } finally {
    await Promise.all([...Object.values(servers), ingest].map((proc) => proc.stop()));
  }
}
