import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
});
afterAll(() => app.close());

describe("the diagnostics for requests, sessions and caching", () => {
  it("are linked from the /diagnostics index", async () => {
    const html = await (await fetch(`${app.url}/diagnostics`)).text();
    for (const href of ["/diagnostics/session", "/diagnostics/forbidden", "/diagnostics/guarded/inner", "/diagnostics/api/echo", "/diagnostics/cached"]) {
      expect(html).toContain(`href="${href}`);
    }
  });

  it("/diagnostics/cached is public for a minute with an ETag, and 304 on If-None-Match", async () => {
    const port = Number(new URL(app.url).port);
    const first = await send(port, "/diagnostics/cached", { method: "GET" });
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("public, max-age=60");
    expect(first.headers.etag).toBeTruthy();
    expect(first.text()).toContain('id="cached-note"');
    // The same body for everybody but its nonce, fresh per response (nobody can compute it): one ETag.
    const again = await send(port, "/diagnostics/cached", { method: "GET" });
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers["content-security-policy"]).not.toBe(first.headers["content-security-policy"]);
    const revalidated = await send(port, "/diagnostics/cached", { method: "GET", headers: { "If-None-Match": first.headers.etag as string } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it("are not there without ENABLE_DIAGNOSTIC_ROUTES", async () => {
    const plain = await startTestApp();
    try {
      for (const path of ["/diagnostics/session", "/diagnostics/api/echo", "/diagnostics/cached"]) {
        const response = await fetch(`${plain.url}${path}`);
        expect(response.status).toBe(404);
        await response.body?.cancel();
      }
    } finally {
      await plain.close();
    }
  });
});
