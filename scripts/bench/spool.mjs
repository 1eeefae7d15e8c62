// Figure 2b: the tunnel's spool. Envelopes/s acknowledged while the ingest refuses connections
// (the circuit open, each one written to SQLite before its 200), then envelopes/s replayed once
// the ingest is back, measured from the first delivery to an empty spool.
import { envelopeLoad } from "./lib/envelope.mjs";
import { freePort, runWorker, sleep, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, median, target } from "./lib/stats.mjs";

/** Envelopes spooled, summed over the upstream label (one upstream here). */
async function spoolDepth(metricsPort) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const values = [...text.matchAll(/^outpost_tunnel_spool_envelopes\{[^}]*\} (\d+)$/gm)].map((match) => Number(match[1]));
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0);
}

async function oneOutage({ size, connections, warmupSec, durationSec }) {
  const ingestPort = await freePort();
  const metricsPort = await freePort();
  const dsn = `http://publickey@127.0.0.1:${ingestPort}/42`;
  const server = await startServer({ SENTRY_DSN: dsn, METRICS_PORT: String(metricsPort) });
  let ingest;
  try {
    const outage = await runWorker("load-worker.mjs", envelopeLoad(`${server.origin}/monitoring?p=42`, dsn, size, { connections, warmupSec, durationSec }));
    const spooled = await spoolDepth(metricsPort);
    ingest = await startHelper("fake-ingest.mjs", { PORT: String(ingestPort) });
    // The replay starts with the circuit's next probe (within its 10 s backoff cap).
    let depth = spooled;
    while (depth === spooled) {
      await sleep(20);
      depth = await spoolDepth(metricsPort);
    }
    const started = performance.now();
    const left = depth;
    while (depth > 0) {
      await sleep(20);
      depth = await spoolDepth(metricsPort);
    }
    const seconds = (performance.now() - started) / 1000;
    return { spooledRps: outage.rps, p50: outage.p50, p99: outage.p99, failures: outage.non2xx + outage.errors, spooled, replayedRps: left / seconds };
  } finally {
    await Promise.all([server.stop(), ingest?.stop()]);
  }
}

export async function spool({ size, connections, rounds, warmupSec, durationSec }) {
  const runs = [];
  for (let round = 0; round < rounds; round++) runs.push(await oneOutage({ size, connections, warmupSec, durationSec }));
  const spooledRps = median(runs.map((r) => r.spooledRps));
  const replayedRps = median(runs.map((r) => r.replayedRps));
  return {
    title: "2b. Tunnel spool: an ingest outage and its recovery",
    header: ["phase", "envelope", "envelopes/s", "p50 ms", "p99 ms", "envelopes/s per run", "spooled per run", "failed"],
    rows: [
      ["spooled (ingest refusing connections)", fmt.kib(size), fmt.int(spooledRps), fmt.ms(median(runs.map((r) => r.p50))), fmt.ms(median(runs.map((r) => r.p99))), runs.map((r) => Math.round(r.spooledRps)).join(" / "), runs.map((r) => r.spooled).join(" / "), runs.reduce((n, r) => n + r.failures, 0)],
      ["replayed (ingest back)", fmt.kib(size), fmt.int(replayedRps), "", "", runs.map((r) => Math.round(r.replayedRps)).join(" / "), "", ""],
    ],
    verdicts: [
      target("Spool: envelopes stored during an ingest outage >= 1,000/s stored", spooledRps >= 1000, `${fmt.int(spooledRps)}/s`),
      target("Spool: envelopes replayed after it >= 1,000/s replayed", replayedRps >= 1000, `${fmt.int(replayedRps)}/s`),
    ],
    notes: [
      `${connections} connections post ${fmt.kib(size)} envelopes for ${warmupSec} s + ${durationSec} s while nothing listens on the ingest's port (after three refusals the circuit sends envelopes straight to the spool); each 200 follows its commit (WAL, synchronous=FULL, group commit).`,
      "Then the fake ingest starts on that port; replay rate = envelopes left when the first one was delivered / seconds until the spool is empty (4 deliveries at a time), read from /metrics every 20 ms.",
    ],
  };
}
