// Figure 1: SSR throughput and latency for GET /, ours (Sentry off and on) against the floor.
import { buildFloorTree } from "./lib/floor-tree.mjs";
import { pairedRatio } from "./lib/paired.mjs";
import { BROWSER_UA, cpuMicros, OUT, runWorker, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, medianRun, target } from "./lib/stats.mjs";

// Nonces, timestamps and trace ids differ per request; everything else must not.
const normalise = (html) =>
  html
    .replace(/nonce="[^"]+"/g, 'nonce=""')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>")
    .replace(/<meta name="(sentry-trace|baggage)"[^>]*>/g, "")
    .replace(/,"traceMeta":\{[^}]*\}/, ',"traceMeta":{}')
    .replace(/"sentryDsn":"[^"]*"/, '"sentryDsn":null');

// Issue 15: our own middleware, routing, headers, metrics and payload may cost at most 15 % more
// CPU per page than the same render as a bare Koa app's only middleware.
const MAX_CPU_OVER_KOA = 1.15;

export async function ssr({ connections, rounds, warmupSec, durationSec, paired }) {
  await buildFloorTree();
  const ingest = await startHelper("fake-ingest.mjs");
  const targets = {
    floor: await startHelper("floor-ssr.mjs", { BENCH_OUT: OUT }),
    "Koa floor": await startHelper("floor-ssr-koa.mjs", { BENCH_OUT: OUT }),
    "ours, Sentry off": await startServer(),
    "ours, Sentry on": await startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` }),
  };
  try {
    const sizes = {};
    for (const [name, proc] of Object.entries(targets)) {
      const response = await fetch(`${proc.origin}/`, { headers: { "user-agent": BROWSER_UA } });
      sizes[name] = await response.text();
    }
    const same = normalise(sizes.floor) === normalise(sizes["ours, Sentry off"]);
    const sameOn = normalise(sizes.floor) === normalise(sizes["ours, Sentry on"]);

    const results = {};
    for (const conns of connections) {
      // Rounds interleave the servers, so drift on the shared machine hits all of them alike.
      const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const [name, proc] of Object.entries(targets)) {
          const cpuBefore = cpuMicros(proc.pid);
          const run = await runWorker("load-worker.mjs", {
            url: `${proc.origin}/`,
            headers: { "user-agent": BROWSER_UA },
            connections: conns,
            warmupSec,
            durationSec,
          });
          runs[name].push({ ...run, cpuUs: (cpuMicros(proc.pid) - cpuBefore) / run.allRequests });
        }
      }
      for (const name of Object.keys(targets)) results[`${name}|${conns}`] = medianRun(runs[name]);
    }

    const rows = [];
    const verdicts = [];
    for (const conns of connections) {
      const floor = results[`floor|${conns}`];
      for (const name of Object.keys(targets)) {
        const r = results[`${name}|${conns}`];
        rows.push([name, conns, fmt.int(r.rps), fmt.ms(r.p50), fmt.ms(r.p99), fmt.x(r.rps / floor.rps), Math.round(r.cpuUs), fmt.x(floor.cpuUs / r.cpuUs), r.runs.join(" / "), r.failures]);
      }
    }
    // CPU per page beside the Koa floor's: both pinned to one core and loaded at once, so the
    // inverse of their req/s ratio is their CPU ratio whatever else the machine does.
    const pairs = [];
    for (const name of ["ours, Sentry off", "ours, Sentry on"]) {
      const { ratio, rates } = await pairedRatio([targets["Koa floor"], targets[name]], paired);
      pairs.push(`${name}: ${rates.map(([koa, ours]) => `${fmt.int(koa)} ÷ ${fmt.int(ours)}`).join(" / ")} req/s, median ${fmt.x(1 / ratio)}`);
      verdicts.push(target(`SSR /, ${name}: CPU per page <= ${MAX_CPU_OVER_KOA} × the Koa floor's`, 1 / ratio <= MAX_CPU_OVER_KOA, fmt.x(1 / ratio)));
    }
    return {
      title: "1. SSR: GET /",
      header: ["server", "connections", "req/s", "p50 ms", "p99 ms", "× floor", "server CPU µs/req", "floor CPU ÷ this", "req/s per run", "failed"],
      rows,
      verdicts,
      notes: [
        `Response bodies: floor ${sizes.floor.length} B, ours with Sentry off ${sizes["ours, Sentry off"].length} B, with Sentry on ${sizes["ours, Sentry on"].length} B ` +
          `(${sizes["ours, Sentry on"].includes('name="sentry-trace"') ? "sentry-trace and baggage meta tags, " : ""}the DSN in the runtime config). ` +
          `Identical to the floor once nonces and timestamps are normalised: Sentry off ${same ? "yes" : "NO"}; Sentry on, also without trace tags and DSN, ${sameOn ? "yes" : "NO"}.`,
        "The floor sends only Content-Type and Cache-Control; ours adds the CSP and security headers.",
        "Koa floor: the floor's render as the only middleware of a bare Koa app (floor-ssr-koa.mjs): its gap to the floor is Koa's own cost per page, the rest of ours is our middleware, routing, headers, metrics and payload.",
        `CPU per page beside the Koa floor (the target): the Koa floor and ours pinned to one core and loaded at once by one autocannon each on the other core (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s at ${paired.connections} connections after a 2 s warm-up), so Koa floor req/s ÷ ours is ours CPU ÷ the Koa floor's. ${pairs.join("; ")}.`,
        "Server CPU µs/req: the server process's user + system CPU time (/proc/<pid>/stat, 10 ms ticks) over a whole load run, warm-up included, divided by the requests it answered; the median of the runs. Unlike req/s it does not depend on how much of the second core the load generator leaves, so it is the steadier figure for comparing the servers' own costs; \"floor CPU ÷ this\" is the ratio the req/s target would show if the server alone were the limit.",
      ],
    };
  } finally {
    await Promise.all([...Object.values(targets), ingest].map((proc) => proc.stop()));
  }
}
