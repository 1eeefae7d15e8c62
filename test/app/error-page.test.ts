import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductApp } from "../support/product-app";
import type { TestApp } from "../support/test-app";

// The product's error page (src/app/root/ErrorPage.tsx) for the errors a route answers on purpose.
let app: TestApp;
beforeAll(async () => {
  // The diagnostics (mounted in the product's root layout) give a query schema and a rate limit.
  app = await startProductApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", TRUST_PROXY: "true" });
});
afterAll(() => app.close());

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe("the product's error page", () => {
  it("lists each refused query parameter with its message", async () => {
    const response = await fetch(`${app.url}/diagnostics/search?page=0&sort=up`);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(titleOf(html)).toBe("This address is not valid · Outpost");
    const list = /<ul id="error-issues">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
    expect(list).toContain("<code>page</code>: page must be 1 or more");
    expect(list).toContain("<code>sort</code>: sort must be asc or desc");
  });

  it("titles a 429 Too many requests, in the heading and the document title", async () => {
    // A visitor address of this test's own, so no other test's visits count against it.
    const visit = () => fetch(`${app.url}/diagnostics/limited`, { headers: { "X-Forwarded-For": "203.0.113.29" } });
    for (let allowed = 0; allowed < 3; allowed++) expect((await visit()).status).toBe(200);
    const refused = await visit();
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(titleOf(html)).toBe("Too many requests · Outpost");
    expect(html).toMatch(/<h1 id="error-title">Too many requests<\/h1>/);
  });

  it("keeps Something went wrong as the title of a server error", async () => {
    const response = await fetch(`${app.url}/diagnostics/server-error`);
    expect(response.status).toBe(500);
    expect(titleOf(await response.text())).toBe("Something went wrong · Outpost");
  });
});
