// The dev loop as a developer sees it: `npm run dev` start-up, and from saving a one-line
// component change to the changed DOM in an open Chromium page (React Fast Refresh).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { launchChromium } from "./lib/chromium.mjs";
import { freePort, ROOT, sleep } from "./lib/proc.mjs";

export const PAGE = path.join(ROOT, "src/app/home/HomePage.tsx");
const TITLE = "Welcome to Outpost";
const EDITED = /Welcome to Outpost \(bench \d+\)/;

/** `edits` title changes and as many changes back: start-up and write-to-DOM times in ms. */
export async function devRefresh({ edits }) {
  if (!readFileSync(PAGE, "utf8").includes(TITLE)) throw new Error(`${PAGE} does not render "${TITLE}"`);
  const setTitle = (text) => writeFileSync(PAGE, readFileSync(PAGE, "utf8").replace(EDITED, TITLE).replace(TITLE, text));
  // Only our text is put back, so an edit someone else makes meanwhile survives.
  const restore = () => setTitle(TITLE);
  process.on("exit", restore);
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/dev.mjs")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: String(port), METRICS_PORT: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
  });
  let browser;
  const samples = [];
  let reloads = 0;
  try {
    for (const deadline = started + 30_000; !output.includes("[dev] rebuilt in"); await sleep(5)) {
      if (performance.now() > deadline) throw new Error(`dev never started:\n${output}`);
    }
    const startMs = performance.now() - started;
    browser = await launchChromium();
    const tab = await browser.browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForSelector("html[data-hydrated=true]");
    await tab.evaluate(() => Object.assign(window, { benchPage: true }));
    for (let i = 0; i < edits * 2; i++) {
      // As between a developer's saves: the server's standby has finished preloading.
      await sleep(1500);
      const text = i % 2 === 0 ? `${TITLE} (bench ${i})` : TITLE;
      await tab.evaluate(stampChange, text);
      // Both clocks are wall-clock milliseconds on this machine.
      const written = performance.timeOrigin + performance.now();
      setTitle(text);
      const changedAt = await tab.evaluate(() => window.benchChanged);
      samples.push(changedAt - written);
      if (!(await tab.evaluate(() => window.benchPage === true))) {
        reloads++;
        await tab.evaluate(() => Object.assign(window, { benchPage: true }));
      }
    }
    return { startMs, samples, reloads };
  } finally {
    await browser?.close();
    restore();
    process.off("exit", restore);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

/** In the page: `window.benchChanged` resolves to the moment #home-title shows `text`. */
function stampChange(text) {
  const title = document.querySelector("#home-title");
  window.benchChanged = new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (title.textContent !== text) return;
      observer.disconnect();
      resolve(performance.timeOrigin + performance.now());
    });
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    setTimeout(() => reject(new Error(`#home-title did not show "${text}" within 10 s`)), 10_000);
  });
}
