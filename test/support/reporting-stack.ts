import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser";
import { type FakeIngest, startFakeIngest } from "./fake-ingest";
import { type ServerProcess, startServerProcess } from "./server-process";

interface ReportingStack extends ReportingServer {
  browser: BrowserContext;
  /** Every URL the browser requested. */
  requestedUrls: string[];
}

interface ReportingServer {
  ingest: FakeIngest;
  server: ServerProcess;
}

/** Which build the server runs: the fixture app's unless `dist` says DIST (the product's own tests). */
interface BuildChoice {
  dist?: string;
}

/** A fake ingest and the server reporting to it (diagnostic routes on), for one describe block or file. */
export function reportingServer(env: Record<string, string>, build: BuildChoice = {}): ReportingServer {
  const stack = {} as ReportingServer;
  beforeAll(async () => {
    stack.ingest = await startFakeIngest();
    stack.server = await startServerProcess({
      SENTRY_DSN: `http://publickey@127.0.0.1:${stack.ingest.port}/42`,
      ENABLE_DIAGNOSTIC_ROUTES: "true",
      ...env,
    }, build);
  });
  afterAll(async () => {
    await stack.server?.stop();
    await stack.ingest?.close();
  });
  return stack;
}

/** The reporting server and Chromium, for one describe block. */
export function reportingStack(env: Record<string, string>, build: BuildChoice = {}): ReportingStack {
  const stack = Object.assign(reportingServer(env, build), { requestedUrls: [] as string[] }) as ReportingStack;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const chromium = await launchChromium();
    ({ browser: stack.browser, close: closeBrowser } = chromium);
    stack.browser.on("request", (request) => stack.requestedUrls.push(request.url()));
  });
  afterAll(async () => {
    await closeBrowser?.();
  });
  return stack;
}
