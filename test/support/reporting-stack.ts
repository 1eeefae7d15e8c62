import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser";
import { type FakeIngest, startFakeIngest } from "./fake-ingest";
import { type ServerProcess, startServerProcess } from "./server-process";

interface ReportingStack {
  ingest: FakeIngest;
  server: ServerProcess;
  browser: BrowserContext;
  /** Every URL the browser requested. */
  requestedUrls: string[];
}

/** A fake ingest, the server reporting to it (diagnostic routes on) and Chromium, for one describe block. */
export function reportingStack(env: Record<string, string>): ReportingStack {
  const stack = { requestedUrls: [] as string[] } as ReportingStack;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stack.ingest = await startFakeIngest();
    stack.server = await startServerProcess({
      SENTRY_DSN: `http://publickey@127.0.0.1:${stack.ingest.port}/42`,
      ENABLE_DIAGNOSTIC_ROUTES: "true",
      ...env,
    });
    const chromium = await launchChromium();
    ({ browser: stack.browser, close: closeBrowser } = chromium);
    stack.browser.on("request", (request) => stack.requestedUrls.push(request.url()));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await stack.server?.stop();
    await stack.ingest?.close();
  });
  return stack;
}

