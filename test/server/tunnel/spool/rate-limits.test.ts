import { describe, expect, it } from "vitest";
import { UpstreamRateLimits } from "#src/server/tunnel/spool/rate-limits";

describe("UpstreamRateLimits", () => {
  const upstream = { origin: "https://o1.ingest.sentry.io", path: "/api/42/envelope/" };
  const other = { origin: "https://o1.ingest.sentry.io", path: "/api/43/envelope/" };

  it("holds the limited categories of one project only, until the limit expires", () => {
    let now = 1_000;
    const limits = new UpstreamRateLimits(60_000, () => now);
    limits.update(upstream, { statusCode: 429, headers: { "x-sentry-rate-limits": "60:transaction;replay:organization, 10::project" } });
    expect(limits.heldUntil(upstream, ["transaction"])).toBe(61_000);
    expect(limits.heldUntil(upstream, ["error"])).toBe(11_000);
    expect(limits.heldUntil(other, ["error"])).toBe(0);
    now = 20_000;
    expect(limits.heldUntil(upstream, ["error"])).toBe(0);
    expect(limits.heldUntil(upstream, ["error", "replay"])).toBe(61_000);
    expect(limits.heldUntil(upstream, ["*"])).toBe(61_000);
  });

  it("reads Retry-After, and a bare 429 as 60 seconds for everything", () => {
    const limits = new UpstreamRateLimits(60_000, () => 0);
    limits.update(upstream, { statusCode: 503, headers: { "retry-after": "5" } });
    expect(limits.heldUntil(upstream, ["error"])).toBe(5_000);
    limits.update(other, { statusCode: 429, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
    limits.update(other, { statusCode: 200, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
  });
});
