// Figure 2: envelopes/s and latency through the tunnel, against a bare relay and direct posts.
import { envelopeLoad } from "./lib/envelope.mjs";
import { pairedRatio, pairFigures } from "./lib/paired.mjs";
import { runWorker, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, medianRun, target } from "./lib/stats.mjs";
import { baselineBuild } from "./navigation.mjs";
import { productionNode } from "./production-node.mjs";
import { buildFor } from "./runtime-build.mjs";

/** Envelopes up to this size are judged against the Koa floor rather than the bare relay. */
const SMALL_ENVELOPE = 1024;

/**
 * Paired ratios against the bare relay, per size: ours, and the Koa floor (floor-relay-koa.mjs:
 * the relay's forwarding as a Koa app's only route on @koa/router), on one Node.
 */
async function pairedAgainstRelay({ relay, ours, koa }, dsn, { sizes, connections, paired }) {
  const figures = {};
  for (const size of sizes) {
    const input = (server) => envelopeLoad(`${server.origin}/monitoring?p=42`, dsn, size, {});
    figures[size] = {
      ours: await pairedRatio([relay, ours], { input, connections, ...paired }),
      koa: await pairedRatio([relay, koa], { input, connections, ...paired }),
    };
  }
  return figures;
}

/** The same pairs on production's Node (the Dockerfile's), when it differs from this one. */
async function onProductionNode(ingest, dsn, settings) {
  const production = productionNode();
  if (!production || production.path === process.execPath) return undefined;
  const { path: node, version } = production;
  const servers = {
    relay: await startHelper("floor-relay.mjs", { INGEST_ORIGIN: ingest.origin }, { node }),
    koa: await startHelper("floor-relay-koa.mjs", { INGEST_ORIGIN: ingest.origin }, { node }),
    ours: await startServer({ SENTRY_DSN: dsn }, { node, outRel: buildFor(node) }),
  };
  try {
    return { version, figures: await pairedAgainstRelay(servers, dsn, settings) };
  } finally {
    await Promise.all(Object.values(servers).map((proc) => proc.stop()));
  }
}

/** The paired figures of one size in a line: ours and the Koa floor against the relay, and ours against the floor. */
function pairSummary({ ours, koa }) {
  return `ours ${fmt.x(ours.ratio)} the relay, the Koa floor ${fmt.x(koa.ratio)}, ours ÷ Koa floor ${fmt.x(ours.ratio / koa.ratio)}`;
}

/**
 * Small envelopes are judged against the Koa floor, as Koa and @koa/router alone sit near the
 * relay line there; large ones against the relay (docs/decisions/0015-tunnel-target-against-koa-floor.md).
 * Ours ÷ the floor is the ratio of the two medians measured against the same relay.
 */
function throughputVerdict(size, pair, onProduction) {
  const context = `(paired; ${pairSummary(pair)}${onProduction})`;
  if (size <= SMALL_ENVELOPE) {
    const ratio = pair.ours.ratio / pair.koa.ratio;
    return target(`Tunnel ${fmt.kib(size)} >= 0.95 × the Koa floor`, ratio >= 0.95, `${fmt.x(ratio)} ${context}`);
  }
  return target(`Tunnel ${fmt.kib(size)} >= 0.85 × bare relay`, pair.ours.ratio >= 0.85, `${fmt.x(pair.ours.ratio)} ${context}`);
}

export async function tunnel({ sizes, connections, rounds, warmupSec, durationSec, paired }) {
  const ingest = await startHelper("fake-ingest.mjs");
  const dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
  const ours = await startServer({ SENTRY_DSN: dsn });
  const relay = await startHelper("floor-relay.mjs", { INGEST_ORIGIN: ingest.origin });
  const koa = await startHelper("floor-relay-koa.mjs", { INGEST_ORIGIN: ingest.origin });
  const targets = {
    "direct to ingest": `${ingest.origin}/api/42/envelope/`,
    "bare relay": `${relay.origin}/monitoring?p=42`,
    "ours (tunnel)": `${ours.origin}/monitoring?p=42`,
  };
  try {
    const results = {};
    for (const size of sizes) {
      const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const [name, url] of Object.entries(targets)) {
          runs[name].push(
            await runWorker("load-worker.mjs", envelopeLoad(url, dsn, size, { connections, warmupSec, durationSec })),
          );
        }
      }
      for (const name of Object.keys(targets)) results[`${name}|${size}`] = medianRun(runs[name]);
    }

    // Judged paired, as rounds one after the other swing on a shared VM
    // (docs/decisions/0001-benchmarks-judged-paired.md). Last, as it pins the servers to one core.
    const pairs = await pairedAgainstRelay({ relay, ours, koa }, dsn, { sizes, connections, paired });
    const production = await onProductionNode(ingest, dsn, { sizes, connections, paired });

    const rows = [];
    const verdicts = [];
    for (const size of sizes) {
      const relayed = results[`bare relay|${size}`];
      const direct = results[`direct to ingest|${size}`];
      for (const name of Object.keys(targets)) {
        const r = results[`${name}|${size}`];
        rows.push([name, fmt.kib(size), fmt.int(r.rps), fmt.ms(r.p50), fmt.ms(r.p99), fmt.x(r.rps / relayed.rps), fmt.x(r.rps / direct.rps), r.runs.join(" / "), r.failures]);
      }
      const r = results[`ours (tunnel)|${size}`];
      const added = r.p50 - relayed.p50;
      const onProduction = production ? `; on production's Node ${production.version}: ${pairSummary(production.figures[size])}` : "";
      verdicts.push(throughputVerdict(size, pairs[size], onProduction));
      verdicts.push(target(`Tunnel ${fmt.kib(size)} added p50 < 1 ms over bare relay`, added < 1, `${added.toFixed(2)} ms`));
    }
    return {
      title: "2. Tunnel: POST envelopes",
      header: ["target", "envelope", "envelopes/s", "p50 ms", "p99 ms", "× relay", "× direct", "envelopes/s per run", "failed"],
      rows,
      verdicts,
      notes: [
        `${connections} connections. Ours runs with SENTRY_DSN set (the tunnel is only mounted with a DSN), so @sentry/node is loaded as in production; tunnel requests are not traced.`,
        "The bare relay forwards Content-Type and Content-Length and pipes the answer back; no query, header, size or DSN checks.",
        `The throughput target is judged paired, as the SSR group's CPU target is: the relay and ours pinned to CPU 0 and loaded at once, by one autocannon each on CPU 1 (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s at ${connections} connections after a 2 s warm-up; the fake ingest unpinned), so ours ÷ relay envelopes/s is the relay's CPU per envelope ÷ ours. At ${fmt.kib(SMALL_ENVELOPE)} the target is ours ÷ the Koa floor (below), the median of ours ÷ relay over the median of Koa floor ÷ relay; at larger sizes, ours ÷ relay. The table's "× relay" is from the runs one after the other. Relay ÷ ours envelopes/s per round, then each one's CPU per envelope and the pair's share of CPU 0: ${sizes.map((size) => `${fmt.kib(size)}: ${pairFigures(pairs[size].ours)}`).join("; ")}. The added p50 is from the runs one after the other.`,
        `What the fixed stack alone costs: floor-relay-koa.mjs is the bare relay's forwarding as a Koa app's only route on @koa/router (no checks, headers or metrics; a body that came whole with its headers goes as a buffer, others stream, as ours does), paired against the relay the same way. Relay ÷ Koa floor: ${sizes.map((size) => `${fmt.kib(size)}: ${pairFigures(pairs[size].koa)}`).join("; ")}.`,
        production
          ? `On production's Node ${production.version} (the Dockerfile's; the build with its own native addon, runtime-build.mjs), the same pairs. Relay ÷ ours: ${sizes.map((size) => `${fmt.kib(size)}: ${pairFigures(production.figures[size].ours)}`).join("; ")}. Relay ÷ Koa floor: ${sizes.map((size) => `${fmt.kib(size)}: ${pairFigures(production.figures[size].koa)}`).join("; ")}.`
          : "Production's Node is this one, or unavailable: no second set of pairs.",
      ],
    };
  } finally {
    await Promise.all([ours, relay, koa, ingest].map((proc) => proc.stop()));
  }
}

// The last build before SENTRY_TUNNEL_SCRUB (BENCH_SCRUB_BASELINE_REV to compare with another).
const SCRUB_BASELINE_REV = process.env.BENCH_SCRUB_BASELINE_REV ?? "7e86106^";

/**
 * Figure 2b: what SENTRY_TUNNEL_SCRUB costs per 1 KiB error event envelope, paired on one core
 * (lib/paired.mjs): scrubbing on against off, and off against the build before the scrubber.
 */
export async function tunnelScrub({ connections, paired, size = 1024 }) {
  const baseline = baselineBuild(SCRUB_BASELINE_REV);
  const ingest = await startHelper("fake-ingest.mjs");
  const dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
  const servers = {
    before: await startServer({ SENTRY_DSN: dsn }, { root: baseline.dir, outRel: "dist" }),
    off: await startServer({ SENTRY_DSN: dsn }),
    on: await startServer({ SENTRY_DSN: dsn, SENTRY_TUNNEL_SCRUB: "defaults" }),
  };
  try {
    const input = (server) => envelopeLoad(`${server.origin}/monitoring?p=42`, dsn, size, {}, "event");
    const onOff = await pairedRatio([servers.off, servers.on], { input, connections, ...paired });
    const offBefore = await pairedRatio([servers.before, servers.off], { input, connections, ...paired });
    // Both pinned to one core: the ratio of their envelopes/s is the inverse ratio of their CPU per envelope.
    const cost = 1 / onOff.ratio;
    return {
      title: "2b. Tunnel: scrubbing (SENTRY_TUNNEL_SCRUB)",
      header: ["pair", "envelope", "envelopes/s per round", "CPU per envelope"],
      rows: [
        [`scrubbing on ÷ off`, fmt.kib(size), onOff.rates.map(([a, b]) => `${fmt.int(b)} ÷ ${fmt.int(a)}`).join(" / "), `${fmt.x(cost)} off's`],
        [`off ÷ ${baseline.sha}`, fmt.kib(size), offBefore.rates.map(([a, b]) => `${fmt.int(b)} ÷ ${fmt.int(a)}`).join(" / "), `${fmt.x(1 / offBefore.ratio)} the build before's`],
      ],
      verdicts: [
        target(`Scrubbing on <= 1.5 × off, CPU per ${fmt.kib(size)} event envelope`, cost <= 1.5, `${fmt.x(cost)} (paired; off ÷ on: ${pairFigures(onOff)})`),
        target(`Scrubbing off >= 0.97 × the build before it (${baseline.sha})`, offBefore.ratio >= 0.97, `${fmt.x(offBefore.ratio)} (paired; before ÷ off: ${pairFigures(offBefore)})`),
      ],
      notes: [
        `A ${fmt.kib(size)} error event envelope as the browser SDK sends one (exception, request, breadcrumbs), with an Authorization header, so the scrubber replaces a value and re-serialises the event (its costlier case; an event with nothing to replace goes as it came). Servers pinned to CPU 0 and loaded at once by one autocannon each on CPU 1, ${connections} connections, ${paired.rounds} rounds of ${paired.seconds} s after a 2 s warm-up. Off is compared with ${baseline.label} (${SCRUB_BASELINE_REV}), built from its own sources.`,
      ],
    };
  } finally {
    await Promise.all([...Object.values(servers), ingest].map((proc) => proc.stop()));
  }
}
