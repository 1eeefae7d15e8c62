export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of each field across repeated load runs (runs with errors are kept and flagged). */
export function medianRun(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    failures: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    runs: runs.map((r) => Math.round(r.rps)),
  };
}

export const MiB = 1024 * 1024;
export const fmt = {
  int: (n) => Math.round(n).toLocaleString("en-US"),
  ms: (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1)),
  x: (n) => `${n.toFixed(2)}×`,
  mib: (n) => `${(n / MiB).toFixed(1)} MiB`,
  kib: (n) => `${(n / 1024).toFixed(1)} KiB`,
};

/** One target line: printed as soon as it is known, and kept for the report. */
export function target(name, pass, detail) {
  const line = `${pass ? "PASS" : "MISS"}  ${name}: ${detail}`;
  console.log(line);
  return { name, pass, detail, line };
}
