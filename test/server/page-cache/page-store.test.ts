import { describe, expect, it } from "vitest";
import { type CacheEntry, entryBytes, localPageStore } from "#src/server/page-cache/page-store";

const BUDGET = 10_000;
/** Each entry below is counted at ~3,160 bytes (entryBytes: its ASCII text, written as text, names, overhead): three fit the budget, four do not. */
const BODY = 1_500;

function entry(name: string, bodyLength = BODY): CacheEntry {
  const now = Date.now();
  return {
    stored: { kind: "data", status: 200, headers: { "content-type": "application/json" }, body: name.padEnd(bodyLength, "."), etag: `W/"${name}"`, storedAt: now },
    freshUntil: now + 60_000,
    staleUntil: now + 60_000,
    tags: [`tag:${name}`],
  };
}

describe("the in-process page store", () => {
  it("drops the least recently used entry once its byte budget is reached, and stays under it", async () => {
    const store = localPageStore(BUDGET);
    for (const name of ["a", "b", "c"]) await store.set(name, entry(name));
    // Read: "a" becomes the most recently used, so "b" is the least.
    expect(await store.get("a")).toBeDefined();
    await store.set("d", entry("d"));

    expect(await store.get("b")).toBeUndefined();
    const kept = await Promise.all(["a", "c", "d"].map((key) => store.get(key)));
    expect(kept.every(Boolean)).toBe(true);
    const total = kept.reduce((sum, found) => sum + entryBytes(found as CacheEntry), 0);
    expect(total).toBeLessThanOrEqual(BUDGET);
    expect(total + entryBytes(entry("b"))).toBeGreaterThan(BUDGET);
  });

  it("keeps no entry larger than the whole budget, and forgets an evicted entry's tags", async () => {
    const store = localPageStore(BUDGET);
    await store.set("huge", entry("huge", BUDGET));
    expect(await store.get("huge")).toBeUndefined();
    for (const name of ["a", "b", "c", "d"]) await store.set(name, entry(name));
    expect(await store.get("a")).toBeUndefined();
    // Dropping the evicted entry's tag touches nothing kept.
    await store.dropTag("tag:a");
    for (const name of ["b", "c", "d"]) expect(await store.get(name)).toBeDefined();
    await store.dropTag("tag:c");
    expect(await store.get("c")).toBeUndefined();
  });
});
