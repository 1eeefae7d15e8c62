// Debian's Chromium with the flags this network needs and a fresh profile, for the benchmarks
// and (through test/support/browser.ts) the browser tests.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
/** Headless, no network of its own (updates, sync, QUIC), no first-run screens: for every launch, Lighthouse's too. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** `javaScriptEnabled: false` for pages as a visitor without JavaScript gets them. */
export async function launchChromium({ javaScriptEnabled = true } = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), "outpost-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    javaScriptEnabled,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
