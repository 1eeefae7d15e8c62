// Two servers pinned to CPU 0 and loaded at once, each by its own load generator pinned to
// CPU 1: they share one core fairly, so their throughput ratio is the inverse ratio of their
// CPU time per request, whatever the shared machine's speed at the moment.
import { BROWSER_UA, pinToCpu0, runWorker } from "./proc.mjs";
import { median } from "./stats.mjs";

/**
 * Median req/s ratio b / a over `rounds` simultaneous loads of `path` (a 2 s warm-up first).
 * `onRound` sees each round's figures. Needs taskset (util-linux).
 */
export async function pairedRatio([a, b], { path = "/", rounds = 3, seconds = 5, connections = 100, onRound = () => {} }) {
  for (const server of [a, b]) await pinToCpu0(server);
  const load = (server, durationSec) =>
    runWorker("load-worker.mjs", { url: `${server.origin}${path}`, headers: { "user-agent": BROWSER_UA }, connections, durationSec }, { cpu: 1 });
  await Promise.all([a, b].map((server) => load(server, 2)));
  const ratios = [];
  const rates = [];
  for (let round = 0; round < rounds; round++) {
    const [ra, rb] = await Promise.all([a, b].map((server) => load(server, seconds)));
    ratios.push(rb.rps / ra.rps);
    rates.push([ra.rps, rb.rps]);
    onRound(ra, rb);
  }
  return { ratio: median(ratios), ratios, rates };
}
