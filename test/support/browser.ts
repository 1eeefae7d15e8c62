import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);

if (!hasChromium) {
  console.warn(
    `Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

/** Debian's Chromium with the flags this network needs and a fresh profile. */
export async function launchChromium(
  { javaScriptEnabled = true }: { javaScriptEnabled?: boolean } = {},
): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), "outpost-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    javaScriptEnabled,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
