import type { Middleware } from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/test/flooded";
const BUDGET_MB = 0.5;
const FLOOD = 300;
/** Past TEXT_WRITE_MAX, so a hit is written from the entry's bytes (a smaller page holds only its text: flood-memory.test.tsx). */
const TEXT = "catalogue ".repeat(2_000);

const routes = await loadAppRoutes({
  routes: [route("test/flooded", "test/flooded.tsx")],
  files: {
    "test/flooded.tsx": {
      module: { default: ({ data }: { data: { text: string } }) => <p id="text">{data.text}</p> },
      server: { cache: { maxAge: 60, tags: ["flooded"] }, load: () => ({ text: TEXT }) },
    },
  },
});

/** The bodies the page cache wrote from its stored bytes (a hit's, with a fresh nonce), as the app sends them. */
const sent: Buffer[] = [];
const keepSentBodies: Middleware = async (ctx, next) => {
  await next();
  if (ctx.path === PAGE && Buffer.isBuffer(ctx.body)) sent.push(ctx.body);
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PAGE_CACHE_MAX_MB: String(BUDGET_MB) }, { routes, extraMiddleware: [keepSentBodies] });
});
afterAll(() => app.close());

describe("the in-process page cache under a flood of distinct query strings", () => {
  it("counts what it really keeps against its budget, and holds no per-key state once the flood settles", async () => {
    let next = 0;
    const worker = async () => {
      while (next < FLOOD) {
        const query = `?q=${next++}`;
        // Two visitors at once for each URL: the second waits for the first's render.
        const answers = await Promise.all([fetch(`${app.url}${PAGE}${query}`), fetch(`${app.url}${PAGE}${query}`)]);
        for (const answer of answers) expect((await answer.text()).includes(TEXT.slice(0, 50))).toBe(true);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const cache = app.deps.services.pageCache;
    if (!cache) throw new Error("no page cache");
    const held = cache.bookkeeping();
    expect(held).toMatchObject({ inflight: 0, refreshing: 0, refreshFailed: 0, droppedTags: 0 });
    expect(held.keptKeys).toBeGreaterThan(0);
    expect(held.keptKeys).toBeLessThan(FLOOD);
    expect(held.keptBytes).toBeLessThanOrEqual(BUDGET_MB * 1024 * 1024);

    // What an entry really holds: its text (one byte a character here) and, twice at most (the
    // template and one free copy), the memory behind its bytes: their own, not a pool's slab.
    expect(sent.length).toBeGreaterThan(FLOOD);
    const body = sent[0] as Buffer;
    expect(body.buffer.byteLength).toBe(body.byteLength);
    const real = body.byteLength + 2 * body.buffer.byteLength;
    const counted = held.keptBytes / held.keptKeys;
    expect(counted).toBeGreaterThanOrEqual(real);
    expect(counted).toBeLessThan(real + 4_096);
  });
});
