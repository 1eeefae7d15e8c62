import { navigationTarget } from "../../shared/navigation/navigation-target";
import type { NavigateOptions } from "../../shared/navigation/router-context";
import type { Navigation, RouterLocation } from "../../shared/navigation/router-state";
import type { RouteState } from "../../shared/routing/route-state";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import type { RouteAnswer } from "./fetch-route-data";
import { settled } from "./fetchers/fetcher-status";
import { withKeptData } from "./kept-data";
import { prefetchKey, preloadCode, wanted } from "./prefetch";
import { PAGE } from "./requests";
import { currentPath, type HistoryMode, idsOf, leave, type RouterCore } from "./router-core";

export const IDLE: Navigation = { state: "idle" };
// A redirect loop ends in a full page load, where the browser's own limit applies.
const MAX_REDIRECTS = 10;

export const newKey = () => Math.random().toString(36).slice(2, 10);

/** A link's or navigate()'s target: this origin's loads on the client, another origin's as a document. */
export function navigate(core: RouterCore, to: string, options: NavigateOptions): Promise<void> {
  const target = navigationTarget(to, core.env.location.href);
  if (target.kind !== "client") {
    if (target.kind === "document") leave(core, target.url.href);
    return Promise.resolve();
  }
  const { url } = target;
  const same = url.href === core.env.location.href;
  return go(core, url, options.replace || same ? "replace" : "push", 0);
}

/** Loads the page at `url` (data and code) and shows it; the newest page request wins. */
async function go(core: RouterCore, url: URL, mode: HistoryMode, redirects: number, key?: string): Promise<void> {
  // A resource route (JSON, a file) has no page to render here.
  if (core.routes.isResource(url.pathname, core.diagnostics)) return leave(core, url.href);
  const ticket = core.requests.start(PAGE);
  const matched = preloadCode(core, url);
  const generation = core.freshness.generation;
  const routes = wanted(core, url, matched, mode);
  if (mode === "none") core.store.set({ revalidation: "loading" });
  else {
    const started = redirects === 0 ? { started: { pattern: matched?.pattern ?? NOT_FOUND_ROUTE } } : {};
    core.store.set({ navigation: { state: "loading", location: url.pathname + url.search + url.hash }, revalidation: "idle", ...started });
  }
  let answer: RouteAnswer;
  try {
    answer = await (core.prefetched.take(prefetchKey(url, routes, generation)) ?? core.data.load(url, ticket.signal, routes));
    if (!ticket.isCurrent()) return;
    if (answer.kind === "reload") return leave(core, url.href);
    // The redirecting URL never became an entry of its own: a push stays a push.
    if (answer.kind === "redirect") return follow(core, answer.location, url, mode === "push" ? "push" : "replace", redirects + 1);
    await core.routes.load(idsOf(answer.state));
  } catch {
    // A network failure or a chunk gone with a deploy: the browser loads the page and shows what happened.
    if (ticket.isCurrent() && !ticket.signal.aborted) leave(core, url.href);
    return;
  }
  if (!ticket.isCurrent()) return;
  commit(core, withKeptData(answer.state, core.store.state.page, routes), url, mode, generation, key);
}

/** Post/redirect/get: the page an action redirects to, loaded as a navigation that runs every loader. */
export function followAction(core: RouterCore, location: string, from: URL): Promise<void> {
  core.freshness.invalidate("action");
  return follow(core, location, from, "push", 1);
}

/** A redirect's target, by the document's rules: another origin loads, another scheme is refused. */
function follow(core: RouterCore, location: string, from: URL, mode: HistoryMode, redirects: number): Promise<void> {
  const target = navigationTarget(location, from);
  if (target.kind === "refused") {
    // What a browser does with such a Location on a full load: it stays where it is.
    console.warn("Outpost: a redirect to a URL that is not http(s) was not followed");
    core.store.set({ navigation: IDLE, revalidation: "idle" });
    revalidateIfStale(core);
    return Promise.resolve();
  }
  if (target.kind === "document" || redirects > MAX_REDIRECTS) {
    leave(core, target.url.href);
    return Promise.resolve();
  }
  return go(core, target.url, mode, redirects);
}

/** The page's data is out of date: revalidated now, or after the pending navigation lands. */
export function invalidate(core: RouterCore, cause: "action" | "revalidate"): number {
  const generation = core.freshness.invalidate(cause);
  revalidateIfStale(core);
  return generation;
}

/** A newer revalidation replaces a pending one: the older answer is never shown. */
function revalidateIfStale(core: RouterCore): void {
  if (core.freshness.stale && core.store.state.navigation.state === "idle") void go(core, new URL(core.env.location.href), "none", 0);
}

/** Shows a page: a new history entry for push and replace, the same location for "none". */
export function commit(core: RouterCore, page: RouteState, url: URL, mode: HistoryMode, generation: number, key = newKey()): void {
  const { env, store, freshness } = core;
  let { location, historyAction } = store.state;
  if (mode !== "none") {
    if (mode !== "pop") env.history[mode === "push" ? "pushState" : "replaceState"]({ key }, "", url.pathname + url.search + url.hash);
    location = locationOf(url, key);
    historyAction = mode;
  }
  freshness.committed(generation);
  // One change: a fetcher waiting for this data turns idle in the render that shows it.
  store.set({
    page,
    location,
    historyAction,
    navigation: IDLE,
    revalidation: "idle",
    freshAsOf: freshness.freshAsOf,
    fetchers: settled(store.state.fetchers, freshness.freshAsOf),
  });
  // An action answered while this page was on its way: its data may predate it.
  revalidateIfStale(core);
}

/** Back or forward: the entry's page, loaded unless only the fragment changed. */
export function popState(core: RouterCore, event: PopStateEvent): void {
  const { env, store } = core;
  const entry = event.state as { key?: string } | null;
  const key = entry?.key ?? newKey();
  if (!entry?.key) env.history.replaceState({ ...entry, key }, "");
  const url = new URL(env.location.href);
  // Another fragment of the page on screen: nothing to load.
  if (url.pathname + url.search === currentPath(core) && store.state.navigation.state === "idle") {
    store.set({ location: locationOf(url, key), historyAction: "pop" });
    return;
  }
  void go(core, url, "pop", 0, key);
}

export const locationOf = (url: URL, key: string): RouterLocation => ({ pathname: url.pathname, search: url.search, hash: url.hash, key });
