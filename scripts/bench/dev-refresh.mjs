// The dev loop as a developer sees it: `npm run dev` start-up, and from saving a one-line
// component change to the changed DOM in an open Chromium page (React Fast Refresh), on the
// home page (a route module with a component only) and on one that also exports `head`; then
// from saving a stylesheet or a Tailwind class to the changed style (dev-style-refresh.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { devStyleRefresh } from "./dev-style-refresh.mjs";
import { launchChromium } from "./lib/chromium.mjs";
import { startDevServer } from "./lib/dev-server.mjs";
import { ROOT, sleep } from "./lib/proc.mjs";

export const PAGE = path.join(ROOT, "src/app/home/HomePage.tsx");

/**
 * The pages edited: `text` is replaced wherever it occurs in `file` (in a page that exports
 * `head`, its heading and its title both), and the sample ends once `selector` shows the new
 * text (and, with `title`, the document's title too).
 */
export const REFRESHED_PAGES = [
  { name: "home page (component only)", file: PAGE, url: "/", selector: "#home-title", text: "Welcome to Outpost", title: false },
  {
    name: "page exporting head (text and title)",
    file: path.join(ROOT, "src/diagnostics/ClientErrorPage.tsx"),
    url: "/diagnostics/client-error",
    selector: "#client-error-title",
    text: "Client error diagnostic",
    title: true,
  },
];

/**
 * `edits` text changes and as many changes back per page, then as many style saves of each kind:
 * start-up, and write-to-DOM (or to computed style) times in ms per page or kind of save.
 */
export async function devRefresh({ edits }) {
  const components = await devComponentRefresh({ edits });
  return { ...components, pages: [...components.pages, ...(await devStyleRefresh({ edits }))] };
}

async function devComponentRefresh({ edits }) {
  const pages = REFRESHED_PAGES.map((page) => ({ ...page, ...editor(page) }));
  const restoreAll = () => {
    for (const page of pages) page.restore();
  };
  process.on("exit", restoreAll);
  let dev;
  let browser;
  try {
    dev = await startDevServer({ cwd: ROOT });
    const { startMs, readyLines } = dev;
    browser = await launchChromium();
    const results = [];
    for (const page of pages) results.push({ name: page.name, ...(await timeEdits(browser, `http://127.0.0.1:${dev.port}`, page, edits, readyLines)) });
    return { startMs, pages: results };
  } finally {
    await browser?.close();
    restoreAll();
    process.off("exit", restoreAll);
    await dev?.stop();
  }
}

/** Sets and puts back a page's text; only our text is put back, so an edit someone else makes meanwhile survives. */
function editor({ file, text }) {
  if (!readFileSync(file, "utf8").includes(text)) throw new Error(`${file} does not render "${text}"`);
  const edited = new RegExp(`${text} \\(bench \\d+\\)`, "g");
  const setText = (next) => writeFileSync(file, readFileSync(file, "utf8").replace(edited, text).replaceAll(text, next));
  return { setText, restore: () => setText(text) };
}

async function timeEdits(browser, origin, page, edits, readyLines) {
  const tab = await browser.browser.newPage();
  // Said when the page never hydrates: what the browser reported is why.
  const problems = [];
  tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  tab.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
  // The last page's edits may still be restarting the server (refused connections meanwhile).
  for (const deadline = performance.now() + 20_000; ; await sleep(250)) {
    try {
      await tab.goto(`${origin}${page.url}`);
      break;
    } catch (error) {
      if (performance.now() > deadline) throw error;
    }
  }
  await tab.waitForSelector("html[data-hydrated=true]").catch((error) => {
    throw new Error(`${page.url} never hydrated in the dev server:\n${problems.join("\n") || "(the browser reported nothing)"}`, { cause: error });
  });
  await tab.evaluate(() => Object.assign(window, { benchPage: true }));
  const samples = [];
  let reloads = 0;
  for (let i = 0; i < edits * 2; i++) {
    // As between a developer's saves: the server's standby has finished preloading.
    await sleep(1500);
    const text = i % 2 === 0 ? `${page.text} (bench ${i})` : page.text;
    await tab.evaluate(stampChange, { selector: page.selector, text, title: page.title });
    // Both clocks are wall-clock milliseconds on this machine.
    const written = performance.timeOrigin + performance.now();
    const restarts = readyLines();
    page.setText(text);
    const changedAt = await tab.evaluate(() => window.benchChanged);
    samples.push(changedAt - written);
    // The edit also restarts the server (its half of the route changed): a page opened while
    // that runs would have a request cut off, so the next step waits for its ready line.
    for (const deadline = performance.now() + 5_000; readyLines() === restarts && performance.now() < deadline; ) await sleep(20);
    if (!(await tab.evaluate(() => window.benchPage === true))) {
      reloads++;
      await tab.evaluate(() => Object.assign(window, { benchPage: true }));
    }
  }
  await tab.close();
  return { samples, reloads };
}

/** In the page: `window.benchChanged` resolves to the moment `selector` (and the title, if asked) shows `text`. */
function stampChange({ selector, text, title }) {
  const changed = () => document.querySelector(selector)?.textContent === text && (!title || document.title === text);
  window.benchChanged = new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (!changed()) return;
      observer.disconnect();
      resolve(performance.timeOrigin + performance.now());
    });
    observer.observe(document.documentElement, { childList: true, characterData: true, subtree: true });
    setTimeout(() => reject(new Error(`${selector} did not show "${text}" within 10 s`)), 10_000);
  });
}
