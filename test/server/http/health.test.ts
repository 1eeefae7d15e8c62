import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it("answers /healthz while the process runs", async () => {
  const response = await fetch(`${app.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

it("answers /readyz 200 when ready and 503 while draining", async () => {
  const ready = await fetch(`${app.url}/readyz`);
  expect(ready.status).toBe(200);
  await ready.body?.cancel();
  app.deps.readiness.ready = false;
  const draining = await fetch(`${app.url}/readyz`);
  expect(draining.status).toBe(503);
  expect(await draining.json()).toEqual({ status: "draining" });
  const alive = await fetch(`${app.url}/healthz`);
  expect(alive.status).toBe(200);
  await alive.body?.cancel();
  app.deps.readiness.ready = true;
});
