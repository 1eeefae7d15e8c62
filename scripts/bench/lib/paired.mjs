// Two servers pinned to CPU 0 and loaded at once, each by its own load generator pinned to
// CPU 1: they share one core fairly, so their throughput ratio is the inverse ratio of their
// CPU time per request, whatever the shared machine's speed at the moment.
import { BROWSER_UA, cpuMicros, pinToCpu0, runWorker } from "./proc.mjs";
import { fmt, median } from "./stats.mjs";

/**
 * Median req/s ratio b / a over `rounds` simultaneous loads (a 2 s warm-up first): GET `path`
 * with a browser User-Agent, or the load-worker.mjs input `input(server)` gives (without its
 * connections and duration). `onRound` sees each round's figures. Each round also records the
 * servers' CPU time per request (`cpu`, µs) and their share of the core (`busy`), which show
 * whether the core was what limited them. Needs taskset (util-linux).
 */
export async function pairedRatio([a, b], { path = "/", input, rounds = 3, seconds = 5, connections = 100, onRound = () => {} }) {
  for (const server of [a, b]) await pinToCpu0(server);
  const request = input ?? ((server) => ({ url: `${server.origin}${path}`, headers: { "user-agent": BROWSER_UA } }));
  const load = async (server, durationSec) => {
    const cpuBefore = cpuMicros(server.pid);
    const result = await runWorker("load-worker.mjs", { ...request(server), connections, durationSec }, { cpu: 1 });
    const cpu = cpuMicros(server.pid) - cpuBefore;
    return { ...result, cpuPerRequest: cpu / result.allRequests, busy: cpu / (result.seconds * 1e6) };
  };
  await Promise.all([a, b].map((server) => load(server, 2)));
  const ratios = [];
  const rates = [];
  const cpu = [];
  const busy = [];
  for (let round = 0; round < rounds; round++) {
    const [ra, rb] = await Promise.all([a, b].map((server) => load(server, seconds)));
    ratios.push(rb.rps / ra.rps);
    rates.push([ra.rps, rb.rps]);
    cpu.push([ra.cpuPerRequest, rb.cpuPerRequest]);
    busy.push(ra.busy + rb.busy);
    onRound(ra, rb);
  }
  return { ratio: median(ratios), ratios, rates, cpu, busy };
}

/**
 * a's CPU per request ÷ b's, the median of the rounds: the req/s ratio the pair would show were
 * the shared core its only limit. Where one server also waits (on Redis, on the load generators'
 * core), the req/s ratio shows how the core was shared as well as what each request cost.
 */
export function cpuRatio({ cpu }) {
  return median(cpu.map(([cpuA, cpuB]) => cpuA / cpuB));
}

/** A pairedRatio's rounds for a report: a ÷ b req/s, each one's CPU µs per request, the core's use. */
export function pairFigures({ rates, cpu, busy, ratio }) {
  const rounds = rates.map(
    ([a, b], i) => `${fmt.int(a)} ÷ ${fmt.int(b)} req/s (${fmt.int(cpu[i][0])} / ${fmt.int(cpu[i][1])} µs, ${Math.round(busy[i] * 100)} %)`,
  );
  return `${rounds.join(", ")}; median ${fmt.x(ratio)}`;
}
