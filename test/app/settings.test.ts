import { afterAll, beforeAll, expect, it } from "vitest";
import { settings as shippedSettings } from "#src/app/app.server";
import { readAppSettings } from "#src/server/config/env.server";
import { startProductApp } from "../support/product-app";
import type { TestApp } from "../support/test-app";

// Each app started in a test reads its own settings (src/app/app.server.ts): here GREETING.
let french: TestApp;
let plain: TestApp;
beforeAll(async () => {
  french = await startProductApp({ GREETING: "Bonjour" });
  plain = await startProductApp();
});
afterAll(async () => {
  await french.close();
  await plain.close();
});

/** The greeting the home page's loader read from `settings.get(context)`, through a data request. */
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

it("are what the shipped app declares beside its route table, with defaults", () => {
  const values = readAppSettings(shippedSettings, {});
  expect(shippedSettings.get({ services: { settings: values } })).toMatchObject({ GREETING: "Hello" });
});
