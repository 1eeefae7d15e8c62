import { getHeapSnapshot, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMetrics } from "#src/server/metrics";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

// Issue 49, point 12: a flood of distinct query strings on a cached page must not grow the
// process past the cache's budget. The memory a miss leaves to the GC outside V8's heap (Buffers,
// malloc'd) is what the process kept after the flood (docs/decisions/0103-page-cache-memory-off-malloc.md),
// so a miss makes none; and nothing but the kept entries may remember a flooded URL.

const PAGE = "/test/flood-memory";
const BUDGET_MB = 0.1;
const FLOOD = 300;
const TEXT = "catalogue ".repeat(200);
/** In every flooded query string, so the heap can be searched for what still names one. */
const MARKER = "flooded-query-";

const routes = await loadAppRoutes({
  routes: [route("test/flood-memory", "test/flood-memory.tsx")],
  files: {
    "test/flood-memory.tsx": {
      module: { default: ({ data }: { data: { text: string } }) => <p id="text">{data.text}</p> },
      server: { cache: { maxAge: 60, tags: ["flood-memory"] }, load: () => ({ text: TEXT }) },
    },
  },
});

const metrics = createMetrics();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(
    { PAGE_CACHE_MAX_MB: String(BUDGET_MB) },
    {
      routes,
      observeRequest: (r) => metrics.observeRequest(r.method, r.route, r.status, r.durationMs / 1000, r.aborted),
      observeRender: metrics.observeRender,
      observePageCache: metrics.observePageCache,
    },
  );
});
afterAll(() => app.close());
afterEach(() => vi.restoreAllMocks());

setFlagsFromString("--expose-gc");
/** A full garbage collection: what V8's heap holds after it is held. */
const collectGarbage = runInNewContext("gc") as () => void;

/** V8's heap in use once garbage is collected. */
function heldHeap(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

async function flood(from: number, count: number, target: TestApp = app): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const answer = await fetch(`${target.url}${PAGE}?q=${MARKER}${next++}`);
      expect((await answer.text()).includes(TEXT.slice(0, 50))).toBe(true);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Bytes of at least a page's size made outside V8's heap (Buffer.from a string, allocUnsafeSlow) while `run` runs. */
async function pageSizedBuffers(run: () => Promise<void>): Promise<number> {
  let made = 0;
  const from = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;
  const slow = Buffer.allocUnsafeSlow.bind(Buffer);
  vi.spyOn(Buffer, "from").mockImplementation(((...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].length >= TEXT.length) made++;
    return from(...args);
  }) as typeof Buffer.from);
  vi.spyOn(Buffer, "allocUnsafeSlow").mockImplementation((size) => {
    if (size >= TEXT.length) made++;
    return slow(size);
  });
  await run();
  vi.restoreAllMocks();
  return made;
}

/** The distinct flooded query strings named anywhere in this process's heap (a snapshot collects garbage first). */
async function floodedQueriesInHeap(): Promise<Set<string>> {
  const found = new Set<string>();
  const pattern = new RegExp(`${MARKER}\\d+`, "g");
  let tail = "";
  for await (const chunk of getHeapSnapshot()) {
    const text = tail + String(chunk);
    for (const match of text.matchAll(pattern)) found.add(match[0]);
    tail = text.slice(-64);
  }
  return found;
}

/** The platform's series in the metrics registry (Node's own come and go with GC kinds): a label per URL would grow them. */
async function metricSeries(): Promise<number> {
  return (await metrics.registry.metrics()).split("\n").filter((line) => line.startsWith("outpost_")).length;
}

describe("the in-process page cache under a flood of distinct query strings", () => {
  it("answers a miss and a hit of a small page as text: no page-sized bytes outside V8's heap are left for the GC to free", async () => {
    await flood(0, 20);
    expect(await pageSizedBuffers(() => flood(1_000, FLOOD))).toBe(0);
    // Nor a hit: a page this small is kept and written as text only.
    const hit = await pageSizedBuffers(async () => {
      const answer = await fetch(`${app.url}${PAGE}?q=${MARKER}${1_000 + FLOOD - 1}`);
      await answer.text();
      expect(answer.headers.get("cache-status")).toBe("outpost; hit");
    });
    expect(hit).toBe(0);
  });

  it("keeps no trace of a flooded URL but in its kept entries, and no metric series per URL", async () => {
    await flood(10_000, 20);
    const series = await metricSeries();
    await flood(20_000, FLOOD);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const held = app.deps.services.pageCache?.bookkeeping();
    expect(held).toMatchObject({ inflight: 0, refreshing: 0, refreshFailed: 0, droppedTags: 0 });
    expect(await metricSeries()).toBe(series);
    // Each kept entry names its URL (its key, the page's links); a few of the last requests may linger in Node's reused parsers.
    // The test's own fetch keeps its last 250 URLs in Node's resource timing buffer: the client's, not the server's.
    performance.clearResourceTimings();
    const named = await floodedQueriesInHeap();
    expect(named.size).toBeLessThanOrEqual((held?.keptKeys ?? 0) + 8);
  }, 60_000);

  it("counts each kept entry at least at what V8's heap holds for it", async () => {
    const full = await startTestApp({ PAGE_CACHE_MAX_MB: "4" }, { routes });
    try {
      const cache = full.deps.services.pageCache;
      if (!cache) throw new Error("no page cache");
      // More distinct URLs than the budget holds: it is full, then what its entries hold is freed at once.
      await flood(100_000, 1_600, full);
      const { keptBytes, keptKeys } = cache.bookkeeping();
      expect(keptKeys).toBeLessThan(1_600);
      const withEntries = heldHeap();
      await cache.revalidateTag("flood-memory");
      const without = heldHeap();
      expect(cache.bookkeeping().keptKeys).toBe(0);
      const held = withEntries - without;
      expect(held).toBeGreaterThan(keptBytes / 2);
      expect(held).toBeLessThanOrEqual(keptBytes);
    } finally {
      await full.close();
    }
  }, 60_000);
});
