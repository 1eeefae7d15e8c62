import type { Page } from "playwright-core";
import { launchChromium, watchErrors } from "./browser";
import { type DevSession, startDevSession } from "./dev-session";

export interface DevTab {
  session: DevSession;
  tab: Page;
  /** What the tab's console said in red, and the requests that failed, since it opened. */
  consoleErrors: string[];
  failedRequests: string[];
  close(): Promise<void>;
}

/** `npm run dev` with one Chromium tab on `path`, hydrated, its errors watched; a failed start closes what it opened. */
export async function openDevTab(path: string): Promise<DevTab> {
  const session = await startDevSession();
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  const close = async () => {
    await browser?.close();
    session.close();
  };
  try {
    browser = await launchChromium();
    const tab = await browser.browser.newPage();
    const { consoleErrors, failedRequests } = watchErrors(tab);
    await tab.goto(`${session.origin}${path}`);
    await tab.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
    return { session, tab, consoleErrors, failedRequests, close };
  } catch (error) {
    await close();
    throw error;
  }
}
