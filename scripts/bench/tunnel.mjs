// Figure 2: envelopes/s and latency through the tunnel, against a bare relay and direct posts.
import { envelopeLoad } from "./lib/envelope.mjs";
import { pairedRatio, pairFigures } from "./lib/paired.mjs";
import { runWorker, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, medianRun, target } from "./lib/stats.mjs";

export async function tunnel({ sizes, connections, rounds, warmupSec, durationSec, paired }) {
  const ingest = await startHelper("fake-ingest.mjs");
  const dsn = `http://publickey@127.0.0.1:${ingest.port}/42`;
  const ours = await startServer({ SENTRY_DSN: dsn });
  const relay = await startHelper("floor-relay.mjs", { INGEST_ORIGIN: ingest.origin });
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

    // Judged paired (the throughput target): one after the other, the relay's and ours' rounds
    // swung by a quarter on this shared VM. Last, as it pins both servers to one core.
    const pairs = {};
    for (const size of sizes) {
      const input = (server) => envelopeLoad(`${server.origin}/monitoring?p=42`, dsn, size, {});
      pairs[size] = await pairedRatio([relay, ours], { input, connections, ...paired });
    }

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
      const { ratio } = pairs[size];
      const added = r.p50 - relayed.p50;
      verdicts.push(target(`Tunnel ${fmt.kib(size)} >= 0.85 × bare relay`, ratio >= 0.85, `${fmt.x(ratio)} (paired)`));
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
        `The throughput target is judged paired, as the SSR group's CPU target is: the relay and ours pinned to CPU 0 and loaded at once, by one autocannon each on CPU 1 (lib/paired.mjs, ${paired.rounds} rounds of ${paired.seconds} s at ${connections} connections after a 2 s warm-up; the fake ingest unpinned), so ours ÷ relay envelopes/s is the relay's CPU per envelope ÷ ours. The table's "× relay" is from the runs one after the other. Relay ÷ ours envelopes/s per round, then each one's CPU per envelope and the pair's share of CPU 0: ${sizes.map((size) => `${fmt.kib(size)}: ${pairFigures(pairs[size])}`).join("; ")}. The added p50 is from the runs one after the other.`,
      ],
    };
  } finally {
    await Promise.all([ours, relay, ingest].map((proc) => proc.stop()));
  }
}
