import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app";

// Each app started in a test reads its own settings (src/app/app.server.ts): here GREETING.
let french: TestApp;
let plain: TestApp;
beforeAll(async () => {
  french = await startTestApp({ GREETING: "Bonjour", ENABLE_DIAGNOSTIC_ROUTES: "true" });
  plain = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
});
afterAll(async () => {
  await french.close();
  await plain.close();
});

/** The greeting the session page's loader read from `settings.get()`, through a data request. */
async function greeting(app: TestApp): Promise<string | undefined> {
  const response = await fetch(`${app.url}/__data/diagnostics/session`, {
    headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId },
  });
  const { state } = (await response.json()) as { state: { data: Record<string, { greeting?: string }> } };
  return state.data["diagnostics/SessionPage"]?.greeting;
}

it("gives each app the settings it was started with, in one process", async () => {
  expect(await greeting(french)).toBe("Bonjour");
  expect(await greeting(plain)).toBe("Hello");
});
