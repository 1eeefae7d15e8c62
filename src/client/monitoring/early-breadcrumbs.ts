import type { Breadcrumb } from "@sentry/core";
import { onNavigation } from "../navigation/core/navigation-events";

/**
 * The visitor's clicks and the page's navigations from the time reporting starts until the SDK
 * does (at the first error), so that the first error's event tells what led to it: the SDK
 * adds them to its own breadcrumbs as it starts (sentry-client.ts), through `beforeBreadcrumb`.
 */
const KEPT_MAX = 100;
const kept: Breadcrumb[] = [];
let recording = false;

function keep(breadcrumb: Breadcrumb): void {
  if (!recording) return;
  kept.push({ timestamp: Date.now() / 1000, ...breadcrumb });
  if (kept.length > KEPT_MAX) kept.shift();
}

/** The element and up to four ancestors as `tag#id.class`, outermost first, as the SDK names a click's target. */
function describeElement(element: Element): string {
  const names: string[] = [];
  for (let node: Element | null = element; node && names.length < 5 && node !== document.documentElement; node = node.parentElement) {
    const classes = [...node.classList].map((name) => `.${name}`).join("");
    names.unshift(`${node.localName}${node.id ? `#${node.id}` : ""}${classes}`);
  }
  return names.join(" > ");
}

const relativeUrl = () => `${location.pathname}${location.search}${location.hash}`;

export function recordEarlyBreadcrumbs(): void {
  recording = true;
  document.addEventListener(
    "click",
    (event) => {
      if (event.target instanceof Element) keep({ category: "ui.click", message: describeElement(event.target) });
    },
    { capture: true },
  );
  let from = relativeUrl();
  onNavigation({
    end: () => {
      const to = relativeUrl();
      keep({ category: "navigation", data: { from, to } });
      from = to;
    },
  });
}

/** What was recorded, oldest first; recording stops, as the SDK's own breadcrumbs take over. */
export function takeEarlyBreadcrumbs(): Breadcrumb[] {
  recording = false;
  return kept.splice(0);
}
