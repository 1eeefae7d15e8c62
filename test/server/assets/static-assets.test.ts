import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fixtureBuild } from "../../support/builds";
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
  const [style] = app.deps.assets.manifest.entry.styles;
  expect(style).toMatch(/^\/assets\/entry-[A-Z0-9]+\.css$/);
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
