import { describe, expect, it } from "vitest";
import type { RouteAnswer } from "#src/client/navigation/core/fetch-route-data";
import { PrefetchCache } from "#src/client/navigation/prefetch-cache";

const answer = (location: string): Promise<RouteAnswer> => Promise.resolve({ kind: "redirect", build: "b", status: 307, location });

/** A clock the test moves by hand. */
const clock = { ms: 0, now: () => clock.ms };

describe("PrefetchCache", () => {

  it("hands out an answer once, by path and query", async () => {
    const cache = new PrefetchCache(clock);
    const first = answer("/a");
    cache.set("/items?page=2", first);
    expect(cache.has("/items")).toBe(false);
    expect(cache.take("/items?page=2")).toBe(first);
    expect(cache.take("/items?page=2")).toBeUndefined();
  });

  it("forgets an answer after 10 s, so a late click fetches fresh data", () => {
    const cache = new PrefetchCache(clock);
    cache.set("/items", answer("/a"));
    clock.ms += 9_999;
    expect(cache.has("/items")).toBe(true);
    clock.ms += 2;
    expect(cache.take("/items")).toBeUndefined();
  });

  it("forgets a prefetch that failed, so the click asks again", async () => {
    const cache = new PrefetchCache(clock);
    const failed = Promise.reject(new TypeError("network down"));
    cache.set("/items", failed);
    await failed.catch(() => {});
    expect(cache.has("/items")).toBe(false);
  });

  it("a newer prefetch of the same path replaces the older", () => {
    const cache = new PrefetchCache(clock);
    const older = answer("/old");
    const newer = answer("/new");
    cache.set("/items", older);
    cache.set("/items", newer);
    expect(cache.take("/items")).toBe(newer);
  });

  it("an older prefetch that fails does not drop the newer one of the same path", async () => {
    const cache = new PrefetchCache(clock);
    let fail: (error: Error) => void = () => {};
    const older = new Promise<RouteAnswer>((_, reject) => {
      fail = reject;
    });
    cache.set("/items", older);
    const newer = answer("/new");
    cache.set("/items", newer);
    fail(new TypeError("network down"));
    await older.catch(() => {});
    expect(cache.take("/items")).toBe(newer);
  });

  it("clear() drops everything", () => {
    const cache = new PrefetchCache(clock);
    cache.set("/a", answer("/a"));
    cache.set("/b", answer("/b"));
    cache.clear();
    expect([cache.has("/a"), cache.has("/b")]).toEqual([false, false]);
  });
});
