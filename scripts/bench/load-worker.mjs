// Load generator child: autocannon with a fixed connection count, a warm-up run, then the
// measured run. Latencies are collected here from each response because autocannon's own
// histogram keeps whole milliseconds, too coarse for sub-millisecond differences.
import autocannon from "autocannon";
import { envelope, eventEnvelope } from "./lib/envelope.mjs";

const input = JSON.parse(process.env.BENCH_INPUT);
const base = {
  url: input.url,
  method: input.method ?? "GET",
  headers: input.headers ?? {},
  body: input.envelope ? (input.envelope.kind === "event" ? eventEnvelope : envelope)(input.envelope.dsn, input.envelope.size) : undefined,
  connections: input.connections,
  pipelining: 1,
  timeout: 30,
};

const warmup = input.warmupSec ? await autocannon({ ...base, duration: input.warmupSec }) : undefined;

const times = [];
let non2xx = 0;
const instance = autocannon({
  ...base,
  ...(input.amount ? { amount: input.amount } : { duration: input.durationSec }),
});
instance.on("response", (_client, status, _bytes, ms) => {
  if (status >= 200 && status < 300) times.push(ms);
  else non2xx++;
});
const started = performance.now();
const result = await instance;
const seconds = (performance.now() - started) / 1000;

times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
console.log(
  JSON.stringify({
    requests: times.length,
    // Every answer the server gave while this worker ran, for CPU time per request.
    allRequests: times.length + non2xx + (warmup?.requests.total ?? 0),
    seconds,
    rps: times.length / seconds,
    p50: pct(50),
    p99: pct(99),
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
