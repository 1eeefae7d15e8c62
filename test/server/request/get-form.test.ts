import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../support/test-app";

// A <Form method="get"> without JavaScript: the server renders a plain GET form, and answers the
// URL the browser builds from it (the fields as the query) as any page's URL: validated, no CSRF check.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
});
afterAll(() => app.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${app.url}${path}`, { headers });
  return { status: response.status, html: await response.text() };
};

describe("a GET form without JavaScript", () => {
  it("is rendered as <form method=get> whose action is the page (the browser's default: this page)", async () => {
    const { status, html } = await get("/diagnostics/toolkit?q=old");
    expect(status).toBe(200);
    const form = html.match(/<form[^>]*id="toolkit-filter"[^>]*>/)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).not.toContain("action=");
    expect(html).toMatch(/<input[^>]*name="q"[^>]*value="old"/);
    // useSearchParams() and useLocation() on the server: from the request's URL.
    expect(html).toContain('<p id="toolkit-q">old</p>');
    expect(html).toContain('<p id="toolkit-path">/diagnostics/toolkit</p>');
  });

  it("answers the submitted URL, from another site too (a GET changes nothing: no CSRF check)", async () => {
    const { status, html } = await get("/diagnostics/toolkit?q=lamp+shade", { "Sec-Fetch-Site": "cross-site", Origin: "https://elsewhere.example" });
    expect(status).toBe(200);
    expect(html).toContain('<p id="toolkit-q">lamp shade</p>');
    expect(html).toContain('<p id="toolkit-loaded-q">lamp shade</p>');
  });

  it("validates the query by the page's searchParams schema: 400 naming the field", async () => {
    const { status, html } = await get(`/diagnostics/toolkit?q=${"x".repeat(41)}`);
    expect(status).toBe(400);
    expect(html).toContain("q must be at most 40 characters");
  });
});
