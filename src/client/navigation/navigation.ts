import { navigationTarget } from "../../shared/navigation/navigation-target";
import type { NavigateOptions } from "../../shared/navigation/router-context";
import type { RouteState } from "../../shared/routing/route-state";
import { NOT_FOUND_ROUTE } from "../../shared/routing/route-table";
import { holds, released } from "./blocking";
import type { RouteAnswer } from "./core/fetch-route-data";
import { leave } from "./core/leave";
import { PAGE } from "./core/requests";
import { isStale } from "./core/router-store";
import * as transition from "./core/transitions";
import { prefetchKey, preloadCode, wanted } from "./prefetch";
import { type HistoryMode, locationOf, type NavigationIntent } from "./history-entry";
import { type PageLanding, pageAssets, type RouterCore } from "./router-core";

// A redirect loop ends in a full page load, where the browser's own limit applies.
const MAX_REDIRECTS = 10;

/**
 * A link's, a GET form's or navigate()'s target: this origin's loads on the client (unless the
 * blocker holds it), another origin's as a document.
 */
export async function navigate(core: RouterCore, to: string, options: NavigateOptions): Promise<void> {
  const target = navigationTarget(to, core.env.location.href);
  if (target.kind !== "client") {
    if (target.kind === "document") leaveForDocument(core, target.url.href);
    return;
  }
  const { url } = target;
  const { replace, ...intent } = options;
  const mode = replace || url.href === core.env.location.href ? "replace" : "push";
  const going = () => go(core, url, mode, 0, intent).finally(() => released(core));
  if (holds(core, { ...locationOf(url), state: intent.state ?? null }, mode, () => void going())) return;
  return going();
}

/** Loads the page at `url` (data and code) and shows it; the newest page request wins. */
export async function go(core: RouterCore, url: URL, mode: HistoryMode, redirects: number, intent: NavigationIntent = {}): Promise<void> {
  // A resource route (JSON, a file) has no page to render here.
  if (core.routes.isResource(url.pathname, core.diagnostics)) return leaveForDocument(core, url.href);
  const ticket = core.requests.start(PAGE);
  const matched = preloadCode(core, url);
  const generation = core.store.state.invalidated;
  const routes = wanted(core, url, matched, mode);
  if (mode === "none") core.store.apply(transition.revalidate);
  else {
    core.store.apply(transition.navigate, {
      location: url.pathname + url.search + url.hash,
      // A redirect followed is the same navigation: it started once.
      started: redirects === 0 ? { pattern: matched?.pattern ?? NOT_FOUND_ROUTE } : undefined,
      viewTransition: intent.viewTransition ? { from: core.store.state.location.pathname, to: url.pathname } : undefined,
    });
  }
  let answer: RouteAnswer;
  let landing: PageLanding;
  try {
    answer = await (core.prefetched.take(prefetchKey(url, routes, generation)) ?? core.data.load(url, ticket.signal, routes));
    if (!ticket.isCurrent()) return;
    if (answer.kind === "reload") return leaveForDocument(core, url.href);
    // The redirecting URL never became an entry of its own: a push stays a push.
    if (answer.kind === "redirect") return follow(core, answer.location, url, mode === "push" ? "push" : "replace", redirects + 1, intent);
    landing = await pageAssets(core, answer.state);
  } catch {
    // A network failure or a chunk gone with a deploy: the browser loads the page and shows what happened.
    if (ticket.isCurrent() && !ticket.signal.aborted) leaveForDocument(core, url.href);
    return;
  }
  if (!ticket.isCurrent()) return;
  commit(core, landing, landing.withKeptData(answer.state, core.store.state.page, routes), url, mode, generation, intent);
}

/**
 * The browser loads `href`. Should the visitor stay (a beforeunload prompt declined) or come back
 * to this page from the back/forward cache, it is idle, not loading for ever.
 */
function leaveForDocument(core: RouterCore, href: string): void {
  leave(core.env, { kind: "load", href });
  core.store.apply(transition.fail);
}

/** Post/redirect/get: the page an action redirects to, loaded as a navigation that runs every loader. */
export function followAction(core: RouterCore, location: string, from: URL, intent: NavigationIntent): Promise<void> {
  core.store.apply(transition.invalidate, "action");
  return follow(core, location, from, "push", 1, intent);
}

/** A redirect's target, by the document's rules: another origin loads, another scheme is refused. */
async function follow(core: RouterCore, location: string, from: URL, mode: HistoryMode, redirects: number, intent: NavigationIntent): Promise<void> {
  const target = navigationTarget(location, from);
  if (target.kind === "refused") {
    // What a browser does with such a Location on a full load: it stays where it is.
    console.warn("Outpost: a redirect to a non-http(s) URL was not followed");
    core.store.apply(transition.fail);
    revalidateIfStale(core);
    return;
  }
  if (target.kind === "document" || redirects > MAX_REDIRECTS) {
    leaveForDocument(core, target.url.href);
    return;
  }
  return go(core, target.url, mode, redirects, intent);
}

/** The page's data is out of date: revalidated now, or after the pending navigation lands. */
export function invalidate(core: RouterCore, cause: "action" | "revalidate"): number {
  core.store.apply(transition.invalidate, cause);
  const generation = core.store.state.invalidated;
  revalidateIfStale(core);
  return generation;
}

/** A newer revalidation replaces a pending one: the older answer is never shown. */
function revalidateIfStale(core: RouterCore): void {
  if (isStale(core.store.state) && core.store.state.navigation.state === "idle") void go(core, new URL(core.env.location.href), "none", 0);
}

/** Shows a page (`landing`: what pageAssets resolved with), then revalidates it if an action answered meanwhile. */
export function commit(
  core: RouterCore,
  landing: PageLanding,
  page: RouteState,
  url: URL,
  mode: HistoryMode,
  generation: number,
  intent: NavigationIntent = {},
): void {
  landing.commit(core, page, url, mode, generation, intent);
  // An action answered while this page was on its way: its data may predate it.
  revalidateIfStale(core);
}
