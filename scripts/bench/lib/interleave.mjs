// Load runs that compare servers on the shared machine: rounds interleave the servers, so drift
// hits all of them alike, and each run also yields the server's CPU time per request.
import { BROWSER_UA, cpuMicros, pinToCpu0, runWorker } from "./proc.mjs";
import { fmt, medianRun } from "./stats.mjs";

/**
 * `targets`: { name: { proc, url, headers? } } (headers default to a browser's User-Agent).
 * Returns the median run of each target at each connection count, keyed `name|connections`.
 * `pinned`: every server on CPU 0 and the load generator on CPU 1 (taskset), so the scheduler
 * cannot put the two on one core for some runs and not others: with heavy pages at many
 * connections, unpinned runs of one server fell into two modes (docs/decisions/0002-realistic-bench-pinned.md).
 */
export async function measureInterleaved(targets, { connections, rounds, warmupSec, durationSec, pinned = false }) {
  if (pinned) for (const { proc } of Object.values(targets)) await pinToCpu0(proc);
  const results = {};
  for (const conns of connections) {
    const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, { proc, url, headers = { "user-agent": BROWSER_UA } }] of Object.entries(targets)) {
        const cpuBefore = cpuMicros(proc.pid);
        const run = await runWorker("load-worker.mjs", { url, headers, connections: conns, warmupSec, durationSec }, pinned ? { cpu: 1 } : {});
        runs[name].push({ ...run, cpuUs: (cpuMicros(proc.pid) - cpuBefore) / run.allRequests });
      }
    }
    for (const name of Object.keys(targets)) results[`${name}|${conns}`] = medianRun(runs[name]);
  }
  return results;
}

export const LOAD_HEADER = ["server", "connections", "req/s", "p50 ms", "p99 ms", "× floor", "server CPU µs/req", "floor CPU ÷ this", "req/s per run", "failed"];

/** One table row in LOAD_HEADER's columns: median run `r` beside the floor's at the same connections. */
export function loadRow(name, conns, r, floor) {
  return [name, conns, fmt.int(r.rps), fmt.ms(r.p50), fmt.ms(r.p99), fmt.x(r.rps / floor.rps), Math.round(r.cpuUs), fmt.x(floor.cpuUs / r.cpuUs), r.runs.join(" / "), r.failures];
}

export const CPU_NOTE =
  "Server CPU µs/req: the server process's user + system CPU time (/proc/<pid>/stat, 10 ms ticks) over a whole load run, warm-up included, divided by the requests it answered; the median of the runs. Unlike req/s it does not depend on how much of the second core the load generator leaves, so it is the steadier figure for comparing the servers' own costs; \"floor CPU ÷ this\" is the ratio the req/s target would show if the server alone were the limit.";

// Nonces, timestamps and trace ids differ per request, and Sentry on adds the DSN, trace tags
// and feedback's availability to the page; everything else must not differ.
export const normalise = (html) =>
  html
    .replace(/nonce="[^"]+"/g, 'nonce=""')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>")
    .replace(/<meta name="(sentry-trace|baggage)"[^>]*>/g, "")
    .replace(/,"traceMeta":\{[^}]*\}/, ',"traceMeta":{}')
    .replace(/"sentryDsn":"[^"]*"/, '"sentryDsn":null')
    .replace(/("feedbackPage":\{"path":"[^"]*","available":)true/, "$1false");

/** Each target's response body for its URL, fetched once. */
export async function fetchBodies(targets) {
  const bodies = {};
  for (const [name, { url, headers = { "user-agent": BROWSER_UA } }] of Object.entries(targets)) {
    bodies[name] = await (await fetch(url, { headers })).text();
  }
  return bodies;
}
