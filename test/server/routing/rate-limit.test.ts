import { describe, expect, it } from "vitest";
import { createRateLimits } from "#src/server/limits/rate-limits";
import type { RequestContext } from "#src/shared/routing/request";
import { rateLimit } from "#src/server/routing/rate-limit";
import { HttpErrorSignal } from "#src/shared/routing/signals";

function contextOf(rateLimits: ReturnType<typeof createRateLimits>, method: string, clientKey: string, body?: unknown): RequestContext {
  return { method, clientKey, body, services: { rateLimits } } as unknown as RequestContext;
}

describe("rateLimit()", () => {
  it("lets `points` through per key, then throws a 429 with Retry-After and the reason for the error component", async () => {
    const limits = createRateLimits();
    const middleware = rateLimit({ name: "t", points: 2, duration: 60 });
    await middleware(contextOf(limits, "GET", "203.0.113.1"));
    await middleware(contextOf(limits, "GET", "203.0.113.1"));
    const refused = await Promise.resolve(middleware(contextOf(limits, "GET", "203.0.113.1"))).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpErrorSignal);
    const signal = refused as HttpErrorSignal;
    expect(signal.status).toBe(429);
    expect(signal.data).toMatchObject({ retryAfterSeconds: 30, reason: expect.stringContaining("30 s") });
    expect(JSON.stringify(signal.headers)).toContain("Retry-After");
    // Another address has its own allowance.
    await middleware(contextOf(limits, "GET", "203.0.113.2"));
  });

  it("counts only the methods named, under the key the route chooses", async () => {
    const limits = createRateLimits();
    const middleware = rateLimit({ name: "sign-in", points: 1, duration: 900, methods: ["post"], key: ({ body }) => (body as { email: string }).email });
    for (let i = 0; i < 5; i++) await middleware(contextOf(limits, "GET", "203.0.113.1", { email: "ada@example.org" }));
    await middleware(contextOf(limits, "POST", "203.0.113.1", { email: "ada@example.org" }));
    // The same account from another address is still limited; another account is not.
    await expect(Promise.resolve(middleware(contextOf(limits, "POST", "198.51.100.7", { email: "ada@example.org" })))).rejects.toBeInstanceOf(HttpErrorSignal);
    await middleware(contextOf(limits, "POST", "203.0.113.1", { email: "bob@example.org" }));
  });

  it("counts by hand with take(), whatever the method, sharing the middleware's allowance", async () => {
    const limits = createRateLimits();
    const limit = rateLimit({ name: "by-hand", points: 2, duration: 60, methods: ["POST"] });
    expect(await limit.take(contextOf(limits, "GET", "203.0.113.1"))).toEqual({ ok: true });
    await limit(contextOf(limits, "POST", "203.0.113.1"));
    expect(await limit.take(contextOf(limits, "POST", "203.0.113.1"))).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(await limit.take(contextOf(limits, "POST", "203.0.113.2"))).toEqual({ ok: true });
  });

  it.each([
    [{ name: "", points: 1, duration: 1 }, 'rate limit name ""'],
    [{ name: "a b", points: 1, duration: 1 }, 'rate limit name "a b"'],
    [{ name: "x", points: 0, duration: 1 }, 'rate limit "x": points must be a positive integer, got 0'],
    [{ name: "x", points: 1, duration: 0.5 }, 'rate limit "x": duration must be a positive whole number of seconds, got 0.5'],
  ])("refuses %j when the route table loads, naming what is wrong", (options, message) => {
    expect(() => rateLimit(options)).toThrow(message);
  });

  it("keeps one name for one limit", () => {
    const limits = createRateLimits();
    limits.limiter("same", 3, 60);
    expect(() => limits.limiter("same", 5, 60)).toThrow('rate limit "same" is already 3 per 60 s');
  });
});
