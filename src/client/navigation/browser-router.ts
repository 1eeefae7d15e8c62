import type { FetchAnswer, FetcherSubmission } from "../../shared/navigation/fetcher-request";
import type { NavigateOptions, NavigationState, Router } from "../../shared/navigation/router-context";
import type { RouteState } from "../../shared/routing/route-state";
import type { MatchedRoutes } from "../../shared/routing/route-table";
import { routesToLoad } from "../../shared/routing/should-revalidate";
import { NOT_FOUND_ROUTE } from "../../shared/sentry/reporting-rules";
import type { ClientRoutes } from "./client-routes";
import { fetchRouteData, type RouteAnswer, submitRouteData } from "./fetch-route-data";
import { navigationTarget } from "../../shared/navigation/navigation-target";
import { DataFreshness } from "./data-freshness";
import { withKeptData } from "./kept-data";
import { emitNavigation } from "./navigation-events";
import { PrefetchCache } from "./prefetch-cache";
import { focusNewPage } from "./focus-after-navigation";
import { type HistoryMode, ScrollPositions } from "./scroll-positions";

export interface RouterSnapshot {
  state: RouteState;
  navigation: NavigationState;
}

const IDLE: NavigationState = { state: "idle" };
// A redirect loop ends in a full page load, where the browser's own limit applies.
const MAX_REDIRECTS = 10;

const newKey = () => Math.random().toString(36).slice(2, 10);
const fullLoad = (href: string) => window.location.assign(href);
const idsOf = (state: RouteState) => state.matches.map((match) => match.id);
// An answer fetched before an action answered is not fresh enough once it did: the generation is part of the key.
const prefetchKey = (url: URL, routes: readonly string[] | undefined, generation: number) =>
  `${url.pathname}${url.search}#${routes?.join(",") ?? "*"}@${generation}`;

/**
 * Client-side navigation: fetches the next page's data (one request for the whole chain) and
 * code, then updates the URL and renders. The newest navigation wins; anything unexpected (a
 * stale build, a network failure, another origin) becomes a plain page load.
 */
export class BrowserRouter implements Router {
  #snapshot: RouterSnapshot;
  readonly #listeners = new Set<() => void>();
  readonly #routes: ClientRoutes;
  readonly #buildId: string;
  readonly #diagnostics: boolean;
  readonly #prefetched = new PrefetchCache();
  readonly #scroll = new ScrollPositions();
  readonly #freshness = new DataFreshness();
  #key: string;
  #path: string;
  #sequence = 0;
  #controller: AbortController | undefined;
  #afterRender: (() => void) | undefined;

  constructor(routes: ClientRoutes, { buildId, diagnostics, state }: { buildId: string; diagnostics: boolean; state: RouteState }) {
    this.#routes = routes;
    this.#buildId = buildId;
    this.#diagnostics = diagnostics;
    this.#snapshot = { state, navigation: IDLE };
    this.#path = window.location.pathname + window.location.search;
    const current = window.history.state as { key?: string } | null;
    this.#key = current?.key ?? newKey();
    if (!current?.key) window.history.replaceState({ ...current, key: this.#key }, "");
    window.addEventListener("popstate", (event) => this.#onPopState(event));
  }

  readonly snapshot = (): RouterSnapshot => this.#snapshot;
  readonly navigation = (): NavigationState => this.#snapshot.navigation;
  readonly subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly navigate = (to: string, options: NavigateOptions = {}): Promise<void> => {
    const target = navigationTarget(to, window.location.href);
    if (target.kind !== "client") {
      if (target.kind === "document") fullLoad(target.url.href);
      return Promise.resolve();
    }
    const { url } = target;
    const same = url.href === window.location.href;
    return this.#go(url, options.replace || same ? "replace" : "push", 0);
  };

  /** Resolves once the page shows data loaded after this call. */
  readonly revalidate = (): Promise<void> => {
    const generation = this.#invalidate("revalidate");
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.freshAsOf() < generation) return;
        stop();
        resolve();
      });
    });
  };
  readonly freshAsOf = (): number => this.#freshness.freshAsOf;

  readonly fetch = (href: string, submission: FetcherSubmission | undefined, signal: AbortSignal): Promise<FetchAnswer> => {
    const deps = {
      routes: this.#routes,
      buildId: this.#buildId,
      diagnostics: this.#diagnostics,
      follow: (location: string, from: URL) => void this.#followAction(location, from),
      invalidate: () => this.#invalidate("action"),
    };
    // Its own chunk, fetched on a fetcher's first request: most pages never make one.
    return import("./fetchers/fetcher-request").then(
      ({ fetcherRequest }) => fetcherRequest(deps, href, submission, signal),
      // The chunk is gone with a deploy: the browser loads the page, as for a navigation.
      (): FetchAnswer => {
        fullLoad(window.location.href);
        return { kind: "left" };
      },
    );
  };

  readonly submit = async (action: string, body: URLSearchParams | FormData): Promise<"done" | "fallback"> => {
    const target = navigationTarget(action, window.location.href);
    if (target.kind !== "client") return "fallback";
    const { url } = target;
    const path = url.pathname + url.search;
    const id = ++this.#sequence;
    const generation = this.#freshness.generation;
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    this.#update({ navigation: { state: "loading", location: path } });
    let answer: RouteAnswer;
    try {
      answer = await submitRouteData(url, this.#buildId, body, controller.signal);
      if (id !== this.#sequence) return "done";
      if (answer.kind === "redirect") {
        await this.#followAction(answer.location, url);
        return "done";
      }
      if (answer.kind === "state") await this.#routes.load(idsOf(answer.state));
    } catch {
      answer = { kind: "reload" };
    }
    if (id !== this.#sequence) return "done";
    if (answer.kind !== "state") {
      this.#update({ navigation: IDLE });
      return "fallback";
    }
    // The page the action answered with: the form's page, with what it returned.
    this.#commit(answer.state, url, path === this.#path ? "none" : "push", generation);
    return "done";
  };

  readonly prefetch = (to: string): void => {
    const target = navigationTarget(to, window.location.href);
    if (target.kind !== "client") return;
    const { url } = target;
    if (this.#routes.isResource(url.pathname, this.#diagnostics)) return;
    const routes = this.#wanted(url, this.#preloadCode(url), "push");
    const key = prefetchKey(url, routes, this.#freshness.generation);
    if (this.#prefetched.has(key)) return;
    const answer = fetchRouteData(url, this.#buildId, undefined, routes);
    this.#prefetched.set(key, answer);
    answer.then((value) => (value.kind === "state" ? this.#routes.load(idsOf(value.state)) : undefined)).catch(() => {});
  };

  /** RouterRoot calls this once React has committed a new state. */
  rendered(): void {
    const after = this.#afterRender;
    this.#afterRender = undefined;
    after?.();
  }

  #update(change: Partial<RouterSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }

  /** Starts loading the code of the routes the browser expects, alongside the data request. */
  #preloadCode(url: URL): MatchedRoutes | null {
    const matched = this.#routes.table.match(url.pathname, { diagnostics: this.#diagnostics });
    if (matched) this.#routes.load(matched.matches.map((match) => match.id)).catch(() => {});
    return matched;
  }

  /** The routes whose loaders a request for `url` needs; undefined for all of them. */
  #wanted(url: URL, matched: MatchedRoutes | null, mode: HistoryMode): string[] | undefined {
    if (!matched) return undefined;
    const cause = this.#freshness.causeOf(mode === "none");
    const currentUrl = new URL(this.#path, url);
    return routesToLoad({ current: this.#snapshot.state, currentUrl, next: matched.matches, nextUrl: url, cause, modules: this.#routes.modules });
  }

  /** The page's data is out of date: revalidated now, or after the pending navigation lands. */
  #invalidate(cause: "action" | "revalidate"): number {
    const generation = this.#freshness.invalidate(cause);
    this.#revalidateIfStale();
    return generation;
  }

  /** A newer revalidation replaces a pending one: the older answer is never shown. */
  #revalidateIfStale(): void {
    if (this.#freshness.stale && this.#snapshot.navigation.state === "idle") void this.#go(new URL(window.location.href), "none", 0);
  }

  async #go(url: URL, mode: HistoryMode, redirects: number): Promise<void> {
    // A resource route (JSON, a file) has no page to render here.
    if (this.#routes.isResource(url.pathname, this.#diagnostics)) return fullLoad(url.href);
    const path = url.pathname + url.search;
    const id = ++this.#sequence;
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    const matched = this.#preloadCode(url);
    const pattern = matched?.pattern ?? NOT_FOUND_ROUTE;
    const generation = this.#freshness.generation;
    const routes = this.#wanted(url, matched, mode);
    if (mode !== "none") {
      this.#update({ navigation: { state: "loading", location: path + url.hash } });
      document.documentElement.dataset.navigating = "true";
      if (redirects === 0) emitNavigation("start", { pattern });
    }
    let answer: RouteAnswer;
    try {
      answer = await (this.#prefetched.take(prefetchKey(url, routes, generation)) ?? fetchRouteData(url, this.#buildId, controller.signal, routes));
      if (id !== this.#sequence) return;
      if (answer.kind === "reload") return fullLoad(url.href);
      // The redirecting URL never became an entry of its own: a push stays a push.
      if (answer.kind === "redirect") return this.#follow(answer.location, url, mode === "push" ? "push" : "replace", redirects + 1);
      await this.#routes.load(idsOf(answer.state));
    } catch {
      // A network failure or a chunk gone with a deploy: the browser loads the page and shows what happened.
      if (id === this.#sequence && !controller.signal.aborted) fullLoad(url.href);
      return;
    }
    if (id !== this.#sequence) return;
    this.#commit(withKeptData(answer.state, this.#snapshot.state, routes), url, mode, generation);
  }

  /** Post/redirect/get: the page an action redirects to, loaded as a navigation that runs every loader. */
  #followAction(location: string, from: URL): Promise<void> {
    this.#freshness.invalidate("action");
    return this.#follow(location, from, "push", 1);
  }

  /** A redirect's target, by the document's rules: another origin loads, another scheme is refused. */
  #follow(location: string, from: URL, mode: HistoryMode, redirects: number): Promise<void> {
    const target = navigationTarget(location, from);
    if (target.kind === "refused") {
      // What a browser does with such a Location on a full load: it stays where it is.
      console.warn("Outpost: a redirect to a URL that is not http(s) was not followed");
      this.#update({ navigation: IDLE });
      delete document.documentElement.dataset.navigating;
      this.#revalidateIfStale();
      return Promise.resolve();
    }
    if (target.kind === "document" || redirects > MAX_REDIRECTS) {
      fullLoad(target.url.href);
      return Promise.resolve();
    }
    return this.#go(target.url, mode, redirects);
  }

  #commit(state: RouteState, url: URL, mode: HistoryMode, generation: number): void {
    if (mode === "push" || mode === "replace") {
      this.#scroll.save(this.#key);
      this.#key = newKey();
      const method = mode === "push" ? "pushState" : "replaceState";
      window.history[method]({ key: this.#key }, "", url.pathname + url.search + url.hash);
    }
    this.#path = url.pathname + url.search;
    const key = this.#key;
    this.#afterRender = () => {
      this.#scroll.restore(mode, key, url.hash);
      if (mode !== "none") focusNewPage(url.hash);
      delete document.documentElement.dataset.navigating;
      if (mode !== "none") emitNavigation("end", { pattern: state.pattern });
    };
    // Before the update: a fetcher waiting for this data turns idle in the same render.
    this.#freshness.committed(generation);
    this.#update({ state, navigation: IDLE });
    // An action answered while this page was on its way: its data may predate it.
    this.#revalidateIfStale();
  }

  #onPopState(event: PopStateEvent): void {
    this.#scroll.save(this.#key);
    const state = event.state as { key?: string } | null;
    this.#key = state?.key ?? newKey();
    if (!state?.key) window.history.replaceState({ ...state, key: this.#key }, "");
    const url = new URL(window.location.href);
    // Another fragment of the page on screen: nothing to load.
    if (url.pathname + url.search === this.#path && this.#snapshot.navigation.state === "idle") {
      this.#scroll.restore("pop", this.#key, url.hash);
      return;
    }
    void this.#go(url, "pop", 0);
  }
}
