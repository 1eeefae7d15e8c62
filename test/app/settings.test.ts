import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app";

// Each app started in a test reads its own settings (src/app/app.server.ts): here GREETING.
let french: TestApp;
let plain: TestApp;
beforeAll(async () => {
  french = await startTestApp({ GREETING: "Bonjour" });
  plain = await startTestApp();
});
afterAll(async () => {
  await french.close();
  await plain.close();
});

/** The greeting the home page's loader read from `settings.get()`, through a data request. */
async function greeting(app: TestApp): Promise<string | undefined> {
  const response = await fetch(`${app.url}/__data`, {
    headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId },
  });
  const { state } = (await response.json()) as { state: { data: Record<string, { greeting?: string }> } };
  return state.data["home/HomePage"]?.greeting;
}

it("gives each app the settings it was started with, in one process", async () => {
  expect(await greeting(french)).toBe("Bonjour");
  expect(await greeting(plain)).toBe("Hello");
});
