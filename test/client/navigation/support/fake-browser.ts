import { BrowserRouter } from "#src/client/navigation/browser-router";
import { createClientRoutes } from "#src/client/navigation/core/client-routes";
import type { RouterEnvironment } from "#src/client/navigation/core/environment";
import { defineApp, index, route } from "#src/shared/routing/config";
import type { RouteModule } from "#src/shared/routing/module";
import type { RouteState } from "#src/shared/routing/route-state";

// The browser the router is given (window, history, storage, fetch, a few elements), faked in
// memory: the router under test is the real one, only its environment is not a browser.
export const BUILD = "build-1";
export const ORIGIN = "https://shop.example";

const config = defineApp({
  root: "Root.tsx",
  notFound: "NotFound.tsx",
  routes: [index("Home.tsx"), route("items/:id", "Item.tsx"), route("api", "api.server.ts")],
});
const component = (() => null) as unknown as RouteModule["default"];
const importers = Object.fromEntries(["Root", "NotFound", "Home", "Item"].map((id) => [id, async () => ({ default: component }) as RouteModule]));

export const stateFor = (pattern: string, leaf: string, params: Record<string, string> = {}, actionData?: unknown): RouteState => ({
  pattern,
  matches: [
    { id: "Root", params },
    { id: leaf, params },
  ],
  data: { Root: { root: true }, [leaf]: { leaf, params } },
  styles: [],
  ...(actionData === undefined ? {} : { actionData }),
});
export const HOME = stateFor("/", "Home");
export const page = (id: string, build = BUILD) => ({ kind: "state", build, status: 200, state: stateFor("/items/:id", "Item", { id }) });
export const redirect = (location: string, status = 307) => ({ kind: "redirect", build: BUILD, status, location });

/** A fetch answer: a value, a request left open until `release`, or a network failure. */
type Answer = unknown | "pending" | "network";

export interface Request {
  method: string;
  /** The data path without `/__data` and `_routes`. */
  path: string;
  url: string;
  routes: string | null;
  body: string;
  signal: AbortSignal | undefined;
  release(answer: unknown): void;
}

/** A `<link>` of the fake head: the router's preloads and prefetches, and the page's stylesheets. */
export interface FakeLink {
  rel: string;
  as?: string;
  href: string;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  getAttribute(name: "rel" | "as" | "href"): string | null;
  remove(): void;
}

/** The head's links; `querySelectorAll` knows `[attribute=value]` selectors, comma-separated. */
function fakeHead() {
  const links: FakeLink[] = [];
  const matches = (link: FakeLink, selector: string) =>
    selector.split(",").some((one) => {
      const [, name, value] = /^\[(\w+)=([\w-]+)\]$/.exec(one.trim()) ?? [];
      return name !== undefined && link.getAttribute(name as "rel") === value;
    });
  const createLink = (): FakeLink => ({
    rel: "",
    href: "",
    onload: null,
    onerror: null,
    getAttribute(name) {
      return this[name] ?? null;
    },
    remove() {
      const at = links.indexOf(this);
      if (at >= 0) links.splice(at, 1);
    },
  });
  const head = {
    querySelectorAll: (selector: string) => links.filter((link) => matches(link, selector)),
    append: (link: FakeLink) => links.push(link),
  };
  return { links, head, createLink };
}

export function fakeBrowser(start = "/") {
  const location = new URL(start, ORIGIN);
  const entries: { state: unknown; url: string }[] = [{ state: null, url: location.href }];
  let index = 0;
  const listeners = new Map<string, (event: unknown) => void>();
  const answers = new Map<string, Answer>();
  const storage = new Map<string, string>();
  const waiters = new Set<() => void>();
  const log = {
    requests: [] as Request[],
    fullLoads: [] as string[],
    reloads: 0,
    pushed: [] as string[],
    replaced: [] as string[],
    scrolls: [] as string[],
    focused: [] as string[],
    /** history.go() calls: the router's own back/forward moves. */
    moves: [] as number[],
  };
  const element = (name: string) => ({
    tabIndex: -1,
    hasAttribute: () => false,
    setAttribute: () => {},
    focus: () => log.focused.push(name),
    scrollIntoView: () => log.scrolls.push(name),
  });
  const ids = new Set(["details"]);
  const { links, head, createLink } = fakeHead();
  const win = {
    scrollY: 0,
    scrollTo: (_x: number, y: number) => log.scrolls.push(`y=${y}`),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
  };
  const history = {
    scrollRestoration: "auto",
    get state() {
      return entries[index]?.state ?? null;
    },
    pushState(state: unknown, _title: string, url: string) {
      location.href = new URL(url, location).href;
      entries.splice(index + 1, Infinity, { state, url: location.href });
      index += 1;
      log.pushed.push(url);
    },
    replaceState(state: unknown, _title: string, url?: string) {
      if (url) location.href = new URL(url, location).href;
      entries[index] = { state, url: location.href };
      if (url) log.replaced.push(url);
    },
    /** As a browser: the entry changes at once, popstate follows in a later task. */
    go(delta: number) {
      log.moves.push(delta);
      const entry = entries[index + delta];
      if (!entry) return;
      index += delta;
      location.href = entry.url;
      setTimeout(() => listeners.get("popstate")?.({ state: entry.state }), 0);
    },
  };
  const fetch = async (input: string | URL, init: RequestInit = {}) => {
    const url = String(input);
    const parsed = new URL(url, ORIGIN);
    const method = init.method ?? "GET";
    const path = parsed.pathname.replace(/^\/__data/, "") + parsed.search.replace(/[?&]_routes=[^&]*/, "").replace(/^&/, "?");
    let release: (answer: unknown) => void = () => {};
    const opened = new Promise<unknown>((resolve) => {
      release = resolve;
    });
    const request: Request = { method, path, url, routes: parsed.searchParams.get("_routes"), body: String(init.body ?? ""), signal: init.signal ?? undefined, release };
    log.requests.push(request);
    for (const waiter of waiters) waiter();
    const answer = answers.get(`${method} ${path}`) ?? { kind: "state", build: BUILD, status: 404, state: stateFor("not_found", "NotFound") };
    // As a real fetch: an abort rejects the request still open.
    const aborted = () => new Promise<never>((_, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    const settled = answer === "pending" ? await Promise.race([opened, aborted()]) : answer;
    if (settled === "network") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(settled), { headers: { "Content-Type": "application/json" } });
  };
  const env = {
    location: {
      get href() {
        return location.href;
      },
      assign: (href: string) => log.fullLoads.push(href),
      reload: () => log.reloads++,
    },
    history,
    sessionStorage: { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value) },
    fetch,
    clock: performance,
    window: win,
    document: {
      documentElement: { dataset: {} as Record<string, string> },
      getElementById: (id: string) => (ids.has(id) ? element(`#${id}`) : null),
      querySelector: (selector: string) => (selector === "main h1" ? element("h1") : null),
      head,
      createElement: (name: string) => {
        if (name !== "link") throw new TypeError(`the fake document makes no <${name}>`);
        return createLink();
      },
    },
  } as unknown as RouterEnvironment;

  return {
    env,
    log,
    window: win,
    dataset: env.document.documentElement.dataset,
    /** Answers `method path` (path with its query) with a data answer, "pending" or "network". */
    answer: (request: string, value: Answer) => answers.set(request.includes(" ") ? request : `GET ${request}`, value),
    path: () => location.pathname + location.search + location.hash,
    /** The head's links, as `rel href`. */
    links: () => links.map((link) => `${link.rel} ${link.href}`),
    /** The page links these stylesheets (as the server rendered them, or React did). */
    linkStylesheets(...hrefs: string[]) {
      for (const href of hrefs) links.push(Object.assign(createLink(), { rel: "stylesheet", href }));
    },
    /** The link fetching `href` (a preload or prefetch) has loaded, or failed. */
    finishLink(href: string, outcome: "load" | "error" = "load") {
      const link = links.find((candidate) => candidate.href === href && candidate.rel !== "stylesheet");
      if (!link) throw new Error(`no link fetching ${href}`);
      (outcome === "load" ? link.onload : link.onerror)?.();
    },
    /** Until `count` requests have been made. */
    requested: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (log.requests.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    /** The tab is hidden or closed: `pagehide`. */
    hide: () => listeners.get("pagehide")?.({}),
    /** The browser's back button: the previous entry, then popstate. */
    back() {
      index -= 1;
      const entry = entries[index];
      if (!entry) throw new Error("no entry to go back to");
      location.href = entry.url;
      listeners.get("popstate")?.({ state: entry.state });
    },
    /** A browser with view transitions: each one's update runs at once and is counted. */
    withViewTransitions() {
      const transitions: (() => void)[] = [];
      (env.document as unknown as Record<string, unknown>).startViewTransition = (update: () => void) => {
        update();
        let finish = () => {};
        const finished = new Promise<void>((resolve) => {
          finish = resolve;
        });
        transitions.push(finish);
        return { finished };
      };
      return transitions;
    },
  };
}

export type FakeBrowser = ReturnType<typeof fakeBrowser>;

/**
 * The real router in the fake browser. Each change renders at once (as React would, then calling
 * `rendered()`); `seen` lists the navigation states in order. `chunks` replaces route chunks' importers.
 */
export async function startRouter(browser: FakeBrowser, state: RouteState = HOME, chunks: Record<string, () => Promise<RouteModule>> = {}) {
  // Chunks that fail are fetched again after 1 ms, not the browser's delays.
  const routes = createClientRoutes(config, { ...importers, ...chunks }, [1, 1]);
  await routes.load(state.matches.map((match) => match.id));
  const router = new BrowserRouter(routes, { buildId: BUILD, diagnostics: false, state, env: browser.env });
  const seen: string[] = [];
  let last = router.state();
  router.subscribe(() => {
    const now = router.state();
    if (now.navigation !== last.navigation) seen.push(now.navigation.state);
    if (now.page !== last.page || now.location !== last.location) router.rendered();
    last = now;
  });
  return { router, seen };
}

/** Until the router's state satisfies `check` (it changes as answers arrive, in microtasks). */
export async function until(router: BrowserRouter, check: (state: ReturnType<BrowserRouter["state"]>) => boolean): Promise<void> {
  if (check(router.state())) return;
  await new Promise<void>((resolve) => {
    const stop = router.subscribe(() => {
      if (!check(router.state())) return;
      stop();
      resolve();
    });
  });
}
