import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { type DevSession, startDevSession, until } from "../support/dev-session";
import { FIXTURE_APP } from "../support/paths";

const PAGE = `${FIXTURE_APP}/styled/StyledPage.tsx`;
const MODULE = `${FIXTURE_APP}/styled/Card.module.css`;
const TAILWIND = `${FIXTURE_APP}/styled/styled.css`;
const GLOBAL = `${FIXTURE_APP}/styles.css`;
const OVERLAY = "#outpost-dev-overlay";

// One `npm run dev` session of the fixture app and one open page, /styled (Tailwind, a CSS Module
// with composes, global CSS), its stylesheets saved in turn as a developer would: what the page
// keeps is the count in #styled-counter (React state, added to the page for this test) and a value
// set on window (no reload).
describe.skipIf(!hasChromium)("npm run dev: saved stylesheets restyle the open page in place", () => {
  let session: DevSession;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let tab: Page;
  const kept = () => tab.evaluate(() => (window as { kept?: string }).kept);
  const counter = () => tab.textContent("#styled-counter");
  /** Waits until `selector`'s computed `property` is `value` (a save's rebuild takes seconds on a busy machine). */
  const styled = (selector: string, property: string, value: string, timeout = 15_000) =>
    tab.waitForFunction(
      ({ selector, property, value }) => {
        const element = document.querySelector(selector);
        return element !== null && getComputedStyle(element).getPropertyValue(property) === value;
      },
      { selector, property, value },
      { timeout },
    );
  const expectKept = async () => {
    await expect(counter()).resolves.toBe("2");
    await expect(kept()).resolves.toBe("from before the edits");
  };

  beforeAll(async () => {
    session = await startDevSession({ appDir: FIXTURE_APP });
    const restarts = session.ready.length;
    session.edit(PAGE, (source) =>
      `import { useState } from "react";\n${source}`
        .replace("export default function StyledPage() {\n", "export default function StyledPage() {\n  const [count, setCount] = useState(0);\n")
        .replace(
          '<h1 className="styled-heading">Styled</h1>',
          '<h1 className="styled-heading">Styled</h1>\n      <button type="button" id="styled-counter" onClick={() => setCount(count + 1)}>{count}</button>',
        ),
    );
    await until(() => session.ready.length > restarts, 30_000);
    browser = await launchChromium();
    tab = await browser.browser.newPage();
    await tab.goto(`${session.origin}/styled`);
    await tab.waitForSelector("html[data-hydrated=true]", { timeout: 15_000 });
    await tab.click("#styled-counter");
    await tab.click("#styled-counter");
    await tab.evaluate(() => Object.assign(window, { kept: "from before the edits" }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    session?.close();
  });

  it("applies a CSS Module's save without a reload, keeping the page's state", async () => {
    await styled("#card", "border-top-color", "rgb(22, 163, 74)");
    session.edit(MODULE, (source) => source.replace("rgb(22, 163, 74)", "rgb(1, 2, 3)"));
    await styled("#card", "border-top-color", "rgb(1, 2, 3)");
    await expectKept();
  });

  it("gives a class added to a CSS Module to the component (its class map through Fast Refresh) and to its declaration", async () => {
    const badged = '<p id="card-title" className={Card.title + " " + Card.badge}>';
    session.edit(PAGE, (source) => source.replace('<p id="card-title" className={Card.title}>', badged));
    await tab.waitForFunction(() => document.querySelector("#card-title")?.className.includes("undefined"), null, { timeout: 15_000 });
    session.edit(MODULE, (source) => `${source}\n.badge {\n  word-spacing: 9px;\n}\n`);
    await styled("#card-title", "word-spacing", "9px");
    expect(await tab.getAttribute("#card-title", "class")).toMatch(/^Card_title_\w+ Card_badge_\w+$/);
    await expectKept();
    const declaration = path.join(session.dir, MODULE.replace(/\.css$/, ".d.css.ts"));
    await until(() => existsSync(declaration) && readFileSync(declaration, "utf8").includes('readonly "badge": string;'));
  });

  it("applies a Tailwind class added in the page's .tsx without a reload", async () => {
    // A class no file of the project uses: Tailwind generates it only once it scans the save.
    session.edit(PAGE, (source) => source.replace('className="flex card-gap', 'className="tracking-[7px] flex card-gap'));
    await styled("#utilities", "letter-spacing", "7px");
    await expectKept();
  });

  it("applies a save of the Tailwind stylesheet and of a global stylesheet without a reload", async () => {
    session.edit(TAILWIND, (source) => `${source}\n#utilities {\n  text-indent: 11px;\n}\n`);
    await styled("#utilities", "text-indent", "11px");
    session.edit(GLOBAL, (source) => `${source}\n.styled-page {\n  outline: 2px solid rgb(4, 5, 6);\n}\n`);
    await styled("main.styled-page", "outline-color", "rgb(4, 5, 6)");
    await expectKept();
  });

  it("links a stylesheet a save starts importing, and drops one no longer imported, without a reload", async () => {
    writeFileSync(path.join(session.dir, FIXTURE_APP, "styled/extra.css"), "#card-title {\n  text-transform: uppercase;\n}\n");
    session.edit(PAGE, (source) => source.replace('import "./styled.css";', 'import "./styled.css";\nimport "./extra.css";'));
    await styled("#card-title", "text-transform", "uppercase");
    session.edit(PAGE, (source) => source.replace('import "./extra.css";\n', ""));
    await styled("#card-title", "text-transform", "none");
    await expectKept();
  });

  it("shows a stylesheet's error on the overlay with its file and line, and the next good save removes it", async () => {
    const good = readFileSync(path.join(session.dir, MODULE), "utf8");
    session.edit(MODULE, (source) => source.replace("  composes: frame;", "  composes: frame;\n  composes: missing;"));
    let text = (await (await tab.waitForSelector(OVERLAY, { timeout: 15_000 })).textContent()) ?? "";
    expect(text).toContain(".card composes .missing, which Card.module.css does not define");
    expect(text).toContain(`${MODULE}:7:`);
    session.edit(MODULE, () => good.replace("word-spacing: 9px", "word-spacing: 10px"));
    await styled("#card-title", "word-spacing", "10px");
    await tab.waitForSelector(OVERLAY, { state: "detached", timeout: 5_000 });

    const global = readFileSync(path.join(session.dir, GLOBAL), "utf8");
    session.edit(GLOBAL, (source) => `${source}\n.broken {\n  color: red;\n`);
    text = (await (await tab.waitForSelector(OVERLAY, { timeout: 15_000 })).textContent()) ?? "";
    expect(text).toMatch(new RegExp(`${GLOBAL}:\\d+:\\d+`));
    expect(text).toContain('Expected "}" to go with "{"');
    session.edit(GLOBAL, () => global.replace("rgb(4, 5, 6)", "rgb(6, 5, 4)"));
    await styled("main.styled-page", "outline-color", "rgb(6, 5, 4)");
    await tab.waitForSelector(OVERLAY, { state: "detached", timeout: 5_000 });

    const page = readFileSync(path.join(session.dir, PAGE), "utf8");
    session.edit(PAGE, (source) => source.replace('import "./styled.css";', 'import "./styled.css";\nimport "./theme.scss";'));
    text = (await (await tab.waitForSelector(OVERLAY, { timeout: 15_000 })).textContent()) ?? "";
    expect(text).toContain("./theme.scss is Sass, which Outpost does not compile");
    expect(text).toMatch(new RegExp(`${PAGE}:\\d+:\\d+`));
    session.edit(PAGE, () => page);
    await tab.waitForSelector(OVERLAY, { state: "detached", timeout: 15_000 });
    await expectKept();
  });
}, 180_000);
