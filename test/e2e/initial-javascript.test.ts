import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { DIST } from "../support/paths";
import { type ServerProcess, startServerProcess } from "../support/server-process";

/** Half of Next.js's initial JavaScript for the same page (196 KB gzip), the payload bench's anchor. */
const INITIAL_GZIP_LIMIT = 98_000;
const UNUSED_LIMIT = 1 / 3;
/**
 * React DOM is one module and the whole client renderer: hydrating a page runs under half of it
 * (updates, transitions, the other element types and events wait for their first use), and no
 * bundler can split a module. Its chunk is held to what it is today instead.
 */
const REACT_CHUNK_UNUSED_LIMIT = 0.6;

interface ChunkUse {
  url: string;
  gzip: number;
  unused: number;
}

// On the product's build, not the fixture app's: the gate measures the JavaScript that ships to visitors.
// What a visitor's browser fetches and runs to show `/` (Chromium's own count of the functions
// run, as Lighthouse counts unused JavaScript), with Sentry on (the heavier case) and off.
describe.skipIf(!hasChromium)("initial JavaScript for /", () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  // The DSN is never contacted: the page's JavaScript is the same whether its ingest answers or not.
  const DSN = "http://publickey@127.0.0.1:9/42";
  for (const [label, env] of [
    ["without a DSN", {}],
    ["with a DSN", { SENTRY_DSN: DSN }],
    ["with a DSN and tracing sampled", { SENTRY_DSN: DSN, SENTRY_TRACES_SAMPLE_RATE: "1" }],
  ] as const) {
    describe(label, () => {
      let server: ServerProcess;
      beforeAll(async () => {
        server = await startServerProcess(env, { dist: DIST });
      });
      afterAll(async () => {
        await server?.stop();
      });

      it(`is at most ${INITIAL_GZIP_LIMIT / 1000} KB gzip, and no chunk is more than a third unused`, async () => {
        const chunks = await initialChunks(chromium.browser, server.url);
        const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
        const report = chunks.map((chunk) => `${chunk.url} ${chunk.gzip} B gzip, ${(chunk.unused * 100).toFixed(1)}% unused`).join("\n");
        expect(total, report).toBeLessThanOrEqual(INITIAL_GZIP_LIMIT);
        let reactChunks = 0;
        for (const chunk of chunks) {
          const holdsReact = await holdsReactDom(chunk.url);
          if (holdsReact) reactChunks += 1;
          expect(chunk.unused, `${chunk.url}\n${report}`).toBeLessThanOrEqual(holdsReact ? REACT_CHUNK_UNUSED_LIMIT : UNUSED_LIMIT);
        }
        // A measurement that missed the page's code would pass for nothing.
        expect(reactChunks, report).toBe(1);
        // The SDK is not among them: it loads once the page is idle.
        expect(chunks.map((chunk) => chunk.url).join(" ")).not.toMatch(/error-reporting|tracing/);
      });
    });
  }

  async function initialChunks(browser: BrowserContext, origin: string): Promise<ChunkUse[]> {
    const page = await browser.newPage();
    await page.coverage.startJSCoverage({ resetOnNavigation: false });
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated=true]");
    // What the document's scripts, its preloads and the start of the app asked for before the
    // load event: what loads once the page is idle (the Sentry SDK) is asked for after it.
    const initialUrls = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      return performance
        .getEntriesByType("resource")
        .filter((entry) => entry.name.endsWith(".js") && entry.startTime <= (navigation?.loadEventStart ?? 0))
        .map((entry) => entry.name);
    });
    const coverage = await page.coverage.stopJSCoverage();
    await page.close();
    return coverage
      .filter((entry) => initialUrls.includes(entry.url))
      .map((entry) => {
        const source = entry.source ?? "";
        // Function granularity: a function that ran counts whole, one that never ran not at all.
        const used = new Uint8Array(source.length);
        for (const fn of entry.functions) {
          const [whole] = fn.ranges;
          if (whole) used.fill(whole.count > 0 ? 1 : 0, whole.startOffset, whole.endOffset);
        }
        const unusedBytes = used.reduce((sum, byte) => sum + (byte === 0 ? 1 : 0), 0);
        return { url: new URL(entry.url).pathname, gzip: gzipSync(source, { level: 9 }).length, unused: unusedBytes / source.length };
      });
  }
});

/** Whether a chunk of the build holds React DOM, by its source map (written beside it). */
async function holdsReactDom(url: string): Promise<boolean> {
  const map = JSON.parse(await readFile(path.join(DIST, "client", `${url}.map`), "utf8")) as { sources: string[] };
  return map.sources.some((source) => source.includes("node_modules/react-dom/"));
}
