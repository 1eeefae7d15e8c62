import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_APP, ROOT } from "../../support/paths";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

/** The stylesheets a document links, in document order. */
const stylesheetLinks = (html: string): string[] => (html.match(/<link\b[^>]*\brel="stylesheet"[^>]*>/g) ?? []).map((tag) => tag.match(/\bhref="([^"]+)"/)?.[1] ?? "");
const classAttribute = (html: string, id: string): string[] => html.match(new RegExp(`id="${id}" class="([^"]*)"`))?.[1]?.split(" ") ?? [];
/** Whether `css` has a selector naming the class `name` (not merely a longer class it begins). */
const hasClassSelector = (css: string, name: string) => new RegExp(`\\.${name.replace(/[^\w-]/g, "\\$&")}(?![\\w-])`).test(css);

const HASH = "[A-Z0-9]{8}";

// /styled of the fixture app (test/fixtures/app/styled: a CSS Module composing another, Tailwind,
// global CSS), built as production builds it and served by the built server over real HTTP: the
// server's HTML, the browser's chunk and the stylesheets name the same classes.
describe("a styled page of a production build", () => {
  let server: ServerProcess;
  let html: string;
  let linkHeader: string;
  let styles: string[];
  const css = new Map<string, string>();

  beforeAll(async () => {
    server = await startServerProcess();
    const response = await fetch(`${server.url}/styled`);
    expect(response.status).toBe(200);
    html = await response.text();
    linkHeader = response.headers.get("link") ?? "";
    styles = stylesheetLinks(html);
    for (const url of styles) css.set(url, await (await fetch(`${server.url}${url}`)).text());
  });
  afterAll(() => server?.stop());

  it("links the root layout's stylesheet, then Base.module's, Card.module's and styled.css's, each once", () => {
    expect(styles).toEqual([
      expect.stringMatching(new RegExp(`^/assets/styles/test_fixtures_app_styles-${HASH}\\.css$`)),
      expect.stringMatching(new RegExp(`^/assets/styles/test_fixtures_app_styled_Base\\.module-${HASH}\\.css$`)),
      expect.stringMatching(new RegExp(`^/assets/styles/test_fixtures_app_styled_Card\\.module-${HASH}\\.css$`)),
      expect.stringMatching(new RegExp(`^/assets/styles/test_fixtures_app_styled_styled-${HASH}\\.css$`)),
    ]);
  });

  it("serves each stylesheet as text/css with immutable caching", async () => {
    for (const url of styles) {
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type"), url).toBe("text/css; charset=utf-8");
      expect(response.headers.get("cache-control"), url).toBe("public, max-age=31536000, immutable");
      await response.body?.cancel();
    }
  });

  it("names in the server's HTML classes the stylesheets define", () => {
    const all = [...css.values()].join("\n");
    const card = classAttribute(html, "card");
    // The card's own class, the one it composes within its file and the one from Base.module.css.
    expect(card).toEqual([expect.stringMatching(/^Card_card_/), expect.stringMatching(/^Card_frame_/), expect.stringMatching(/^Base_surface_/)]);
    for (const name of [...card, ...classAttribute(html, "card-title"), ...classAttribute(html, "utilities")]) {
      expect(hasClassSelector(all, name), `.${name} in ${styles.join(", ")}`).toBe(true);
    }
    expect(all).toMatch(/\.styled-page \.Card_title_\w+/);
  });

  it("gives the browser's chunk of the page the class names the server's HTML has", async () => {
    const chunk = linkHeader.match(new RegExp(`</assets/chunks/StyledPage-${HASH}\\.js>`))?.[0].slice(1, -1);
    expect(chunk, linkHeader).toBeDefined();
    const code = await (await fetch(`${server.url}${chunk}`)).text();
    expect(code).toContain(JSON.stringify(classAttribute(html, "card").join(" ")));
    expect(code).toContain(JSON.stringify(classAttribute(html, "card-title").join(" ")));
  });

  it("serves an image named with url() in a CSS Module content-hashed from /assets/media/", async () => {
    const [cardUrl, cardCss] = [...css.entries()].find(([url]) => url.includes("Card.module")) ?? ["", ""];
    const named = cardCss.match(/url\("?([^")]+)"?\)/)?.[1] ?? "";
    // Named relative to the stylesheet, as the browser resolves it.
    const url = new URL(named, `${server.url}${cardUrl}`).pathname;
    expect(url, cardCss).toMatch(new RegExp(`^/assets/media/dot-${HASH}\\.png$`));
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(ROOT, FIXTURE_APP, "styled/dot.png")))).toBe(true);
  });
});
