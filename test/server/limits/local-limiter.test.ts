import { describe, expect, it } from "vitest";
import { LocalLimiter } from "#src/server/limits/local-limiter";

describe("LocalLimiter", () => {
  it("allows a burst of the per-minute limit, then refills evenly", () => {
    let now = 0;
    const limiter = new LocalLimiter(60, 60_000, 10, () => now);
    for (let i = 0; i < 60; i++) expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take("b").ok).toBe(true);
    now = 1_000;
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(false);
  });

  it("says how long to wait", () => {
    let now = 0;
    const limiter = new LocalLimiter(2, 60_000, 10, () => now);
    limiter.take("a");
    limiter.take("a");
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 30 });
    now = 20_000;
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 10 });
  });

  it("remembers at most maxClients clients", () => {
    const limiter = new LocalLimiter(1, 60_000, 3);
    for (let i = 0; i < 100; i++) limiter.take(`10.0.0.${i}`);
    expect(limiter.size).toBe(3);
  });
});
