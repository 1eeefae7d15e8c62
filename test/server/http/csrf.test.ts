import { afterEach, describe, expect, it } from "vitest";
import { createTunnel } from "#src/server/tunnel";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The real app; a POST that passes the defence reaches the page handler (405: no action here). */
async function start(envVars: Record<string, string> = {}) {
  const refused: string[] = [];
  app = await startTestApp(envVars, { observeCsrfRefusal: (check) => refused.push(check) });
  return refused;
}

async function post(headers: Record<string, string>, path = "/") {
  const response = await fetch(`${app?.url}${path}`, { method: "POST", headers: { ...FORM, ...headers }, body: "a=b", redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

describe("the CSRF defence, direct", () => {
  it("lets same-origin browser requests and non-browser requests through", async () => {
    await start();
    const own = new URL(app?.url ?? "").origin;
    expect((await post({ origin: own })).status).toBe(405);
    expect((await post({ origin: own, "sec-fetch-site": "same-origin" })).status).toBe(405);
    expect((await post({ referer: `${own}/feedback?from=somewhere` })).status).toBe(405);
    expect((await post({})).status).toBe(405);
  });

  it("refuses a foreign Origin with 403 naming the check, logs it without the body and counts it", async () => {
    const refused = await start();
    const response = await post({ origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(response.text).toMatch(/Origin header names another site/);
    expect(refused).toEqual(["origin"]);
    const line = app?.logs.find((l) => l.msg === "cross-site request refused");
    expect(line).toMatchObject({ check: "origin", origin: "https://evil.example", method: "POST" });
    expect(JSON.stringify(app?.logs)).not.toContain("a=b");
  });

  it("refuses an opaque or unparsable Origin", async () => {
    await start();
    expect((await post({ origin: "null" })).status).toBe(403);
    expect((await post({ origin: "not a url" })).status).toBe(403);
  });

  it("uses the Referer's origin when there is no Origin, and never logs its path or query", async () => {
    const refused = await start();
    const response = await post({ referer: "https://evil.example/page?token=secret" });
    expect(response.status).toBe(403);
    expect(response.text).toMatch(/Referer header names another site/);
    expect(refused).toEqual(["referer"]);
    expect(JSON.stringify(app?.logs)).not.toContain("secret");
  });

  it("refuses Sec-Fetch-Site: cross-site, with or without an Origin", async () => {
    const refused = await start();
    expect((await post({ "sec-fetch-site": "cross-site" })).text).toMatch(/Sec-Fetch-Site: cross-site/);
    const own = new URL(app?.url ?? "").origin;
    expect((await post({ "sec-fetch-site": "cross-site", origin: own })).status).toBe(403);
    expect(refused).toEqual(["sec_fetch_site", "sec_fetch_site"]);
  });

  it("guards every state-changing method, not GET, HEAD or OPTIONS", async () => {
    await start();
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${app?.url}/`, { method, headers: { origin: "https://evil.example" } });
      expect(response.status, method).toBe(403);
      await response.text();
    }
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      const response = await fetch(`${app?.url}/`, { method, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
      expect(response.status, method).not.toBe(403);
      await response.text();
    }
  });

  it("trusts ALLOWED_ORIGINS, even from another site", async () => {
    await start({ ALLOWED_ORIGINS: "https://admin.example.org, https://partner.example:8443" });
    expect((await post({ origin: "https://admin.example.org" })).status).toBe(405);
    expect((await post({ origin: "https://partner.example:8443", "sec-fetch-site": "cross-site" })).status).toBe(405);
    expect((await post({ referer: "https://admin.example.org/tools" })).status).toBe(405);
    expect((await post({ origin: "https://partner.example" })).status).toBe(403);
  });
});

describe("the CSRF defence behind TRUST_PROXY", () => {
  const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "shop.example.com" };

  it("takes the site's origin from X-Forwarded-Proto and -Host", async () => {
    await start({ TRUST_PROXY: "true" });
    expect((await post({ ...forwarded, origin: "https://shop.example.com" })).status).toBe(405);
    expect((await post({ ...forwarded, referer: "https://shop.example.com/feedback" })).status).toBe(405);
    expect((await post({ ...forwarded, origin: "http://shop.example.com" })).status).toBe(403);
    expect((await post({ ...forwarded, origin: new URL(app?.url ?? "").origin })).status).toBe(403);
  });

  it("ignores forwarded headers without TRUST_PROXY", async () => {
    await start();
    expect((await post({ ...forwarded, origin: "https://shop.example.com" })).status).toBe(403);
    expect((await post({ ...forwarded, origin: new URL(app?.url ?? "").origin })).status).toBe(405);
  });
});

it("leaves the tunnel to its own checks", async () => {
  const dsn = "http://publickey@127.0.0.1:9/42";
  const tunnel = createTunnel({ path: "/monitoring", allowedDsns: [dsn], maxBytes: 1024, rateLimitPerMinute: 0, connectTimeoutMs: 1000, headersTimeoutMs: 1000 });
  try {
    app = await startTestApp({}, { tunnel });
    const response = await fetch(`${app.url}/monitoring`, {
      method: "POST",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body: "not an envelope",
    });
    // The tunnel's own answer (a malformed query), not the CSRF refusal.
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty("detail");
  } finally {
    await tunnel.close();
  }
});
