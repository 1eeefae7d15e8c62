import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { Segment } from "#src/shared/routing/match";
import { loadAppRoutes } from "./app-routes";
import { PRODUCT_APP } from "./paths";

// axe-core's browser bundle, injected into each page under test (it is not part of the app).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Values for dynamic segments, by parameter name; any other `:name` gets `example`, a `*` gets `example/path`. */
const SAMPLE_PARAMS: Record<string, string> = {};

/** One page of the app's route table, with the path it is visited at. */
export interface WalkedPage {
  pattern: string;
  path: string;
}

/**
 * Every page (not resource route) of src/app/routes.ts, the diagnostic ones included, at a
 * path with its parameters filled: a page added to the table is walked without editing a test.
 */
export async function appPages(): Promise<WalkedPage[]> {
  const routes = await loadAppRoutes(undefined, PRODUCT_APP);
  return routes.table
    .pages()
    .filter((page) => !routes.isResource(page.ids.at(-1) as string))
    .map((page) => ({ pattern: page.pattern, path: samplePath(page.segments) }));
}

function samplePath(segments: readonly Segment[]): string {
  const parts = segments.map((segment) => {
    if (segment.kind === "static") return segment.value;
    if (segment.kind === "rest") return "example/path";
    return encodeURIComponent(SAMPLE_PARAMS[segment.name] ?? "example");
  });
  return `/${parts.join("/")}`;
}

/**
 * axe-core's violations on the page as it is now, every rule and impact, one readable line each
 * (`[]` when there are none). `rules` narrows the run, e.g. to `["color-contrast"]`.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: AxeRunner }).axe;
    const result = await axe.run(document, only ? { runOnly: { type: "rule", values: only } } : {});
    return result.violations.map(
      (violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  }, rules);
  return violations;
}

interface AxeRunner {
  run(
    context: Document,
    options: object,
  ): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }>;
}

/**
 * Makes every document the page loads arrive without its scripts, as a visitor without
 * JavaScript sees it. axe itself is a script, and a context with JavaScript disabled runs no
 * timer, so axe.run never settles there: the page keeps JavaScript, the documents lose theirs.
 */
export async function serveWithoutScripts(page: Page): Promise<void> {
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    // Redirects followed here: Chromium does not route the request a fulfilled redirect leads to.
    const response = await route.fetch();
    // Scripts go; what <noscript> holds is what such a visitor sees instead.
    const body = (await response.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<\/?noscript\b[^>]*>/gi, "");
    await route.fulfill({ response, body });
  });
}
