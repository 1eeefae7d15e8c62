// Part of figure 6: time to the first byte of a page with one deferred value, beside the same
// page with nothing deferred (/diagnostics/deferred?ready=1), requests alternating one at a time.
import { request } from "node:http";
import { BROWSER_UA, startServer } from "./lib/proc.mjs";
import { fmt, median, target } from "./lib/stats.mjs";

/** Milliseconds from sending the request to the first byte of the body; the rest is not read. */
function firstByteMs(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { headers: { "user-agent": BROWSER_UA }, agent: false }, (res) => {
      res.once("data", () => {
        resolve(performance.now() - started);
        res.destroy();
      });
      res.once("error", () => {});
    });
    req.once("error", reject);
    req.end();
  });
}

export async function deferredTtfb({ requests }) {
  const server = await startServer({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
  try {
    const pages = { deferred: `${server.origin}/diagnostics/deferred`, awaited: `${server.origin}/diagnostics/deferred?ready=1` };
    const times = { deferred: [], awaited: [] };
    // Warm-up, then alternate so both see the same machine.
    for (let i = 0; i < 50; i++) for (const url of Object.values(pages)) await firstByteMs(url);
    for (let i = 0; i < requests; i++) for (const [name, url] of Object.entries(pages)) times[name].push(await firstByteMs(url));
    const deferred = median(times.deferred);
    const awaited = median(times.awaited);
    const ratio = deferred / awaited;
    return {
      rows: [[`time to first byte of /diagnostics/deferred, one deferred value ÷ nothing deferred (median of ${requests} each, ms)`, `${fmt.ms(deferred)} ÷ ${fmt.ms(awaited)}`, fmt.x(ratio)]],
      verdicts: [target("Navigation: TTFB of a page with one deferred value within 10 % of the same page with nothing deferred", ratio <= 1.1, fmt.x(ratio))],
    };
  } finally {
    await server.stop();
  }
}
