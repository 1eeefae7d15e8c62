import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRoutes } from "../../support/test-routes";
import { startTestApp, type TestApp } from "../../support/test-app";
import { scriptTags } from "../../support/html";

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

let app: TestApp;
let diagnostics: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { routes: testRoutes });
  diagnostics = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { routes: testRoutes });
});
afterAll(async () => {
  await app.close();
  await diagnostics.close();
});

const errorLines = (target: TestApp) => target.logs.filter((line) => line.level >= 50);

describe("the home page", () => {
  it("is rendered on the server as a whole document", async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(html).toContain("<title>Fixture</title>");
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain("Fixture home");
    expect(html).toContain('id="count"');
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it("puts the request's CSP nonce on every script and nowhere else is script allowed", async () => {
    const response = await fetch(`${app.url}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    for (const directive of [
      "'strict-dynamic'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    const scripts = scriptTags(await response.text());
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const again = await fetch(`${app.url}/`);
    expect(again.headers.get("content-security-policy")).not.toContain(nonce);
    await again.body?.cancel();
  });

  it("preloads the entry's chunks and the matched routes' code with a Link header", async () => {
    const response = await fetch(`${app.url}/`);
    await response.body?.cancel();
    const { manifest } = app.deps.assets;
    const preloads = (response.headers.get("link") ?? "").split(", ").map((value) => /^<([^>]+)>; rel=modulepreload$/.exec(value)?.[1]);
    expect(preloads).toContain(manifest.routes.Home?.script);
    for (const url of manifest.entry.modulePreloads) expect(preloads).toContain(url);
    expect(new Set(preloads).size).toBe(preloads.length);
  });

  it("sends the security headers", async () => {
    const response = await fetch(`${app.url}/`);
    await response.body?.cancel();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("answers HEAD with headers only", async () => {
    const response = await fetch(`${app.url}/`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("");
    const missing = await fetch(`${app.url}/nowhere`, { method: "HEAD" });
    expect(missing.status).toBe(404);
  });

  it("refuses other methods with 405 and Allow", async () => {
    const response = await fetch(`${app.url}/`, { method: "POST", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("not found", () => {
  it("renders the not-found page with 404 in the same layout", async () => {
    const response = await fetch(`${app.url}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<h1 id="not-found">Nothing here</h1>');
    expect(html).toContain('id="to-home"');
    expect(html).toContain("<title>Not found</title>");
  });

  it("renders it when a loader throws notFound(), without logging an error", async () => {
    const before = errorLines(app).length;
    const response = await fetch(`${app.url}/test/missing-item`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('id="not-found"');
    expect(errorLines(app).length).toBe(before);
  });

  it("hides diagnostic routes unless they are enabled", async () => {
    const response = await fetch(`${app.url}/diagnostics/server-error`);
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});

describe("route parameters", () => {
  it("passes decoded params to the loader", async () => {
    const html = await (await fetch(`${app.url}/test/items/a%20b`)).text();
    expect(html).toContain('<p id="item">a b</p>');
  });

  it("gives the loader the request URL, query included", async () => {
    const html = await (await fetch(`${app.url}/test/search?q=outpost`)).text();
    expect(html).toContain(`<p id="search">outpost on ${new URL(app.url).host}</p>`);
  });
});

describe("the redirect signal", () => {
  it("answers 307 with Location, renders nothing and logs no error", async () => {
    const before = errorLines(diagnostics).length;
    const response = await fetch(`${diagnostics.url}/diagnostics/redirect`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/");
    expect(await response.text()).toBe("");
    expect(errorLines(diagnostics).length).toBe(before);
  });
});

describe("errors", () => {
  it("gives the 500 error page for a throwing loader, without the stack in production", async () => {
    const response = await fetch(`${diagnostics.url}/diagnostics/server-error`);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain('<p id="route-error">failed');
    expect(html).not.toContain("diagnostic server error");
    expect(html).not.toMatch(/at .*\.ts/);
    const logged = errorLines(diagnostics).find((line) => JSON.stringify(line).includes("diagnostic server error"));
    expect(logged).toBeTruthy();
  });

  it("gives the 500 error page for a component that throws before the shell", async () => {
    const response = await fetch(`${diagnostics.url}/diagnostics/render-error`);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain('<p id="route-error">failed');
    expect(html).not.toContain("diagnostic render error");
  });

  it("shows the message and stack in development", async () => {
    const development = await startTestApp({ NODE_ENV: "development", ENABLE_DIAGNOSTIC_ROUTES: "true" });
    try {
      const html = await (await fetch(`${development.url}/diagnostics/server-error`)).text();
      expect(html).toContain("Error: diagnostic server error");
      expect(html).toMatch(/at load .*ServerErrorPage\.server\.ts/);
    } finally {
      await development.close();
    }
  });

  it("ends the stream cleanly and logs when a component fails after the shell", async () => {
    const response = await fetch(`${app.url}/test/late-error`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.trimEnd()).toMatch(/<\/html>$/);
    expect(html).toContain('id="fallback"');
    expect(errorLines(app).some((line) => JSON.stringify(line).includes("late failure"))).toBe(true);
  });
});

describe("streaming", () => {
  it("sends the shell to browsers before suspended content resolves", async () => {
    const response = await fetch(`${app.url}/test/late`, { headers: { "user-agent": BROWSER_UA } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain('<p id="fallback">loading</p>');
    expect(first).not.toContain("late content");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
    }
    expect(rest).toContain("late content");
  });

  it("sends crawlers the complete document with no fallback", async () => {
    const response = await fetch(`${app.url}/test/late`, {
      headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    const html = await response.text();
    expect(html).toContain('<p id="late">late content</p>');
    expect(html).not.toContain('id="fallback"');
  });

  it("aborts a render that never finishes after the render timeout", async () => {
    const quick = await startTestApp({ RENDER_TIMEOUT_MS: "200" }, { routes: testRoutes });
    try {
      const response = await fetch(`${quick.url}/test/hang`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html.trimEnd()).toMatch(/<\/html>$/);
      expect(quick.logs.some((line) => JSON.stringify(line).includes("render timed out after 200 ms"))).toBe(true);
    } finally {
      await quick.close();
    }
  });
});
