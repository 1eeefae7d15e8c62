// The dev loop for styles: from saving a CSS Module, or a Tailwind class in a component, to the
// open page's computed style changing (its stylesheet swapped in place), on the fixture app's
// /styled page (Tailwind, a CSS Module with composes, global CSS). In a copy of the project, as
// the edits are the fixture's, which tests read.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchChromium } from "./lib/chromium.mjs";
import { startDevServer } from "./lib/dev-server.mjs";
import { ROOT, sleep } from "./lib/proc.mjs";

const APP = "test/fixtures/app";
const MODULE = `${APP}/styled/Card.module.css`;
const PAGE = `${APP}/styled/StyledPage.tsx`;

/**
 * The saves timed: edit `i` changes `file` so that `selector`'s computed `property` becomes
 * `value(i)`. Each Tailwind edit names a class no file has had, so the stylesheet must be rebuilt.
 */
export const STYLE_SAVES = [
  {
    name: "CSS Module save (Card.module.css on /styled)",
    file: MODULE,
    selector: "#card",
    property: "border-top-color",
    value: (i) => `rgb(${i % 2 === 0 ? 1 : 22}, 2, 3)`,
    edit: (source, i) => source.replace(/border: 3px solid rgb\(\d+, \d+, \d+\)/, `border: 3px solid rgb(${i % 2 === 0 ? 1 : 22}, 2, 3)`),
  },
  {
    name: "Tailwind class added in the .tsx (StyledPage.tsx on /styled)",
    file: PAGE,
    selector: "#utilities",
    property: "letter-spacing",
    value: (i) => `${21 + i}px`,
    edit: (source, i) => source.replace(/className="(?:tracking-\[\d+px\] )?flex card-gap/, `className="tracking-[${21 + i}px] flex card-gap`),
  },
];

/** `edits` pairs of saves per kind: write-to-computed-style times in ms, and reloads (misses). */
export async function devStyleRefresh({ edits }) {
  const dir = mkdtempSync(path.join(tmpdir(), "outpost-bench-styles-"));
  for (const entry of ["src", "scripts", "package.json", "tsconfig.json", ".gitignore", APP]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const dev = await startDevServer({ cwd: dir, env: { OUTPOST_APP_DIR: APP } }).catch((error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  let browser;
  try {
    browser = await launchChromium();
    const tab = await browser.browser.newPage();
    await tab.goto(`http://127.0.0.1:${dev.port}/styled`);
    await tab.waitForSelector("html[data-hydrated=true]");
    await tab.evaluate(() => Object.assign(window, { benchPage: true }));
    const { readyLines } = dev;
    const results = [];
    for (const save of STYLE_SAVES) {
      const samples = [];
      let reloads = 0;
      for (let i = 0; i < edits * 2; i++) {
        await sleep(1500); // as between a developer's saves
        await tab.evaluate(stampStyle, { selector: save.selector, property: save.property, value: save.value(i) });
        const file = path.join(dir, save.file);
        const written = performance.timeOrigin + performance.now();
        const restarts = readyLines();
        writeFileSync(file, save.edit(readFileSync(file, "utf8"), i));
        samples.push((await tab.evaluate(() => window.benchStyled)) - written);
        for (const deadline = performance.now() + 5_000; readyLines() === restarts && performance.now() < deadline; ) await sleep(20);
        if (!(await tab.evaluate(() => window.benchPage === true))) {
          reloads++;
          await tab.evaluate(() => Object.assign(window, { benchPage: true }));
        }
      }
      results.push({ name: save.name, samples, reloads });
    }
    return results;
  } finally {
    await browser?.close();
    await dev.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In the page: `window.benchStyled` resolves to the first frame (or stylesheet load) at which the style shows. */
function stampStyle({ selector, property, value }) {
  const styled = () => {
    const element = document.querySelector(selector);
    return element !== null && getComputedStyle(element).getPropertyValue(property) === value;
  };
  window.benchStyled = new Promise((resolve, reject) => {
    const check = () => {
      if (!styled()) return false;
      document.removeEventListener("load", check, true);
      resolve(performance.timeOrigin + performance.now());
      return true;
    };
    // A swapped link's load event (captured: it does not bubble), and each frame.
    document.addEventListener("load", check, true);
    const frame = () => check() || requestAnimationFrame(frame);
    requestAnimationFrame(frame);
    setTimeout(() => reject(new Error(`${selector} did not get ${property}: ${value} within 10 s`)), 10_000);
  });
}
