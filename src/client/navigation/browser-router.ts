import type { FetcherSubmission } from "../../shared/navigation/fetcher-submission";
import type { BlockerFunction, NavigateOptions, Router } from "../../shared/navigation/router-context";
import type { RouteState } from "../../shared/routing/route-state";
import { proceed, register, reset } from "./blocking";
import type { ClientRoutes } from "./core/client-routes";
import { eventsEffect } from "./effects/events";
import { focusEffect } from "./effects/focus";
import { navigatingFlag } from "./effects/navigating-flag";
import type { RouterEffect } from "./effects/router-effect";
import { scrollEffect } from "./effects/scroll";
import type { RouterEnvironment } from "./core/environment";
import { routeData } from "./core/fetch-route-data";
import type { FetcherHost } from "./fetchers/fetcher-request";
import { fetcherRetainer, fetchFor } from "./fetchers/fetchers";
import { type HistoryEntry, locationOf, newKey } from "./history-entry";
import { followAction, invalidate, navigate } from "./navigation";
import { popState } from "./pop-state";
import { prefetch } from "./prefetch";
import { PrefetchCache } from "./prefetch-cache";
import { Requests } from "./core/requests";
import type { RouterCore } from "./router-core";
import { type BrowserRouterState, initialState, RouterStore } from "./core/router-store";
import { submit } from "./submission";

export interface BrowserRouterOptions {
  buildId: string;
  diagnostics: boolean;
  /** The page the server rendered. */
  state: RouteState;
  env: RouterEnvironment;
}

/**
 * Client-side navigation: fetches the next page's data (one request for the whole chain) and
 * code, then updates the URL and renders. Its state is one store; navigation, submission and
 * fetchers change it, effects (scroll, focus, the navigating flag, events) follow it. Anything
 * unexpected (a stale build, a network failure, another origin) becomes a plain page load.
 */
export class BrowserRouter implements Router {
  readonly #core: RouterCore;
  readonly #effects: RouterEffect[];
  readonly #fetchers: FetcherHost;
  readonly #retain: (key: string) => () => void;

  constructor(routes: ClientRoutes, { buildId, diagnostics, state, env }: BrowserRouterOptions) {
    const entry = env.history.state as HistoryEntry | null;
    const key = entry?.key ?? newKey();
    const entryIndex = entry?.idx ?? 0;
    if (!entry?.key) env.history.replaceState({ ...entry, key, idx: entryIndex }, "");
    const initial = initialState(state, locationOf(new URL(env.location.href), key, entry?.usr ?? null), entryIndex);
    const store = new RouterStore(initial);
    const core: RouterCore = {
      env,
      store,
      routes,
      data: routeData(env.fetch, buildId),
      diagnostics,
      requests: new Requests(),
      prefetched: new PrefetchCache(env.clock),
    };
    this.#core = core;
    // In the order a full page load would: scroll, focus, the flag, then the navigation's end.
    this.#effects = [scrollEffect(env, initial), focusEffect(env.document, initial), navigatingFlag(env.document), eventsEffect(initial)];
    store.subscribe((next, previous) => {
      for (const effect of this.#effects) effect.changed?.(next, previous);
    });
    // The fetchers get what they need of the router passed in: they import none of its parts.
    this.#fetchers = {
      ...core,
      follow: (location, from) => void followAction(core, location, from, {}),
      invalidate: () => invalidate(core, "action"),
    };
    this.#retain = fetcherRetainer(core);
    env.window.addEventListener("popstate", (event) => popState(core, event));
  }

  /** The browser the router was given. */
  get env(): RouterEnvironment {
    return this.#core.env;
  }

  readonly state = (): BrowserRouterState => this.#core.store.state;
  readonly subscribe = (listener: () => void): (() => void) => this.#core.store.subscribe(listener);
  readonly navigate = (to: string, options: NavigateOptions = {}): Promise<void> => navigate(this.#core, to, options);
  readonly go = (delta: number): void => this.#core.env.history.go(delta);
  readonly block = (shouldBlock: BlockerFunction): (() => void) => register(this.#core, shouldBlock);
  readonly proceed = (): void => proceed(this.#core);
  readonly reset = (): void => reset(this.#core);
  readonly submit = (action: string, body: URLSearchParams | FormData, options: Pick<NavigateOptions, "viewTransition"> = {}) =>
    submit(this.#core, action, body, options);
  readonly prefetch = (to: string): void => prefetch(this.#core, to);
  readonly fetch = (key: string, href: string, submission: FetcherSubmission | undefined) => fetchFor(this.#fetchers, key, href, submission);
  readonly retainFetcher = (key: string): (() => void) => this.#retain(key);

  /** Resolves once the page shows data loaded after this call. */
  readonly revalidate = (): Promise<void> => {
    const generation = invalidate(this.#core, "revalidate");
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.state().freshAsOf < generation) return;
        stop();
        resolve();
      });
    });
  };

  /** RouterRoot calls this once React has committed a new page or location. */
  rendered(): void {
    const state = this.state();
    for (const effect of this.#effects) effect.rendered?.(state);
  }
}
