import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser";
import { type ServerProcess, startServerProcess } from "./server-process";

interface FixtureStack {
  server: ServerProcess;
  browser: BrowserContext;
}

/** The fixture app (test/fixtures/app, its build made first if stale) served with `env` (ENABLE_DIAGNOSTIC_ROUTES…), and Chromium, for one describe block. */
export function fixtureStack(env: Record<string, string> = {}): FixtureStack {
  const stack = {} as FixtureStack;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stack.server = await startServerProcess(env);
    ({ browser: stack.browser, close: closeBrowser } = await launchChromium());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await stack.server?.stop();
  });
  return stack;
}
