import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fixtureBuild } from "../../support/builds";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it("serves the hashed entry script with immutable caching", async () => {
  const { script } = app.deps.assets.manifest.entry;
  expect(script).toMatch(/^\/assets\/entry-[A-Z0-9]+\.js$/);
  const response = await fetch(`${app.url}${script}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  const body = Buffer.from(await response.arrayBuffer());
  expect(body.equals(readFileSync(path.join(fixtureBuild(), "client", script)))).toBe(true);
});

it("serves the hashed stylesheet", async () => {
  // One stylesheet per CSS file, under styles/: the root layout's (test/fixtures/app/styles.css).
  const [style] = app.deps.assets.manifest.routes.Layout?.styles ?? [];
  expect(style).toMatch(/^\/assets\/styles\/test_fixtures_app_styles-[A-Z0-9]{8}\.css$/);
  const response = await fetch(`${app.url}${style}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
  await response.body?.cancel();
});

it("answers HEAD with the length and no body", async () => {
  const { script } = app.deps.assets.manifest.entry;
  const response = await fetch(`${app.url}${script}`, { method: "HEAD" });
  expect(response.status).toBe(200);
  expect(Number(response.headers.get("content-length"))).toBeGreaterThan(0);
  expect(await response.text()).toBe("");
});

it("does not serve source maps, unknown files or paths outside the build", async () => {
  const { script } = app.deps.assets.manifest.entry;
  for (const target of [`${script}.map`, "/assets/nope.js", "/assets/../../package.json", "/assets/%2e%2e/manifest.json"]) {
    const response = await fetch(`${app.url}${target}`);
    expect(response.status, target).toBe(404);
    await response.body?.cancel();
  }
});

it("names each asset's content hash as its ETag and answers a matching If-None-Match with 304, for GET and HEAD", async () => {
  const { script } = app.deps.assets.manifest.entry;
  const hash = /-([A-Z0-9]{8})\.js$/.exec(script)?.[1];
  const response = await fetch(`${app.url}${script}`, { method: "HEAD" });
  expect(response.headers.get("etag")).toBe(`"${hash}"`);
  // Raw HTTP: fetch() adds `Cache-Control: no-cache` to a conditional request, as a browser's own revalidation does not.
  const port = Number(new URL(app.url).port);
  for (const method of ["GET", "HEAD"]) {
    const conditional = await send(port, script, { method, headers: { "if-none-match": `"${hash}"` } });
    expect(conditional.status, method).toBe(304);
    expect(conditional.headers.etag).toBe(`"${hash}"`);
    expect(conditional.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(conditional.body.length).toBe(0);
  }
  const changed = await fetch(`${app.url}${script}`, { headers: { "if-none-match": '"AAAAAAAA"' } });
  expect(changed.status).toBe(200);
  await changed.body?.cancel();
});

it("answers a missing asset with a 404 no browser or proxy keeps, for GET and HEAD", async () => {
  for (const method of ["GET", "HEAD"]) {
    for (const target of ["/assets/chunks/Gone-ABCDEFGH.js", "/assets/nope.js"]) {
      const response = await fetch(`${app.url}${target}`, { method });
      expect(response.status, target).toBe(404);
      expect(response.headers.get("cache-control"), target).toBe("no-store");
      await response.body?.cancel();
    }
  }
});
