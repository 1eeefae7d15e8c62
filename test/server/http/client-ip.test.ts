import { afterEach, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Reads ctx.ip as the tunnel would, through a tiny route mounted for the test. */
async function clientIp(envVars: Record<string, string>, forwardedFor: string): Promise<string> {
  app = await startTestApp(envVars, {
    extraMiddleware: [
      async (ctx, next) => {
        if (ctx.path !== "/test/ip") return next();
        ctx.body = ctx.ip;
      },
    ],
  });
  const response = await fetch(`${app.url}/test/ip`, { headers: { "x-forwarded-for": forwardedFor } });
  return response.text();
}

it("ignores X-Forwarded-For without TRUST_PROXY", async () => {
  expect(await clientIp({}, "203.0.113.9")).toMatch(/127\.0\.0\.1$/);
});

it("takes the entry the trusted proxy appended, not one the client forged", async () => {
  expect(await clientIp({ TRUST_PROXY: "true" }, "198.51.100.1, 203.0.113.9")).toBe("203.0.113.9");
  expect(await clientIp({ TRUST_PROXY: "true", PROXY_HOPS: "2" }, "198.51.100.1, 203.0.113.9, 10.0.0.2")).toBe("203.0.113.9");
});
