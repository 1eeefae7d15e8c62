import { type AppConfig, type RouteConfig, routeId } from "./config";
import { expandOptional, matchSegments, type Params, parsePattern, type Segment, specificity, splitPath } from "./match";

/** Route label of the not-found page: never a path pattern (patterns start with "/"). */
export const NOT_FOUND_ROUTE = "not_found";

export interface RouteMatch {
  /** The route module's id (its file without extension). */
  id: string;
  params: Params;
}

/** A matched chain of routes, root layout first, and the label it is known by. */
export interface MatchedRoutes {
  /** The deepest route's full pattern (`/items/:id`), or `not_found`: names metrics and transactions. */
  pattern: string;
  matches: RouteMatch[];
}

/** One page of the table: its full pattern, the chain of module ids down to it, and whether it is diagnostic. */
export interface Branch {
  pattern: string;
  segments: Segment[];
  ids: string[];
  diagnostic: boolean;
}

/** One form of a branch's pattern, its optional segments each present or left out: what a path is matched against. */
interface Form {
  branch: Branch;
  segments: Segment[];
  score: number;
  /** How many optional segments the branch's pattern has: at equal specificity, fewer ranks first. */
  optionals: number;
  order: number;
}

/** Most specific first; then the pattern without optional segments (`/about` before `/:lang?/about`); then the table's order. */
function rank(forms: Form[]): Form[] {
  return forms.sort((a, b) => b.score - a.score || a.optionals - b.optionals || a.order - b.order);
}

// Shared by every match of a pattern without parameters; frozen, so no loader can change it for the next.
const NO_PARAMS: Params = Object.freeze({}) as Params;

/** A same-site path, so that error pages never link elsewhere; anything else stops start-up, naming it. */
function feedbackPageOf({ feedbackPage }: AppConfig): string | null {
  if (feedbackPage === undefined) return null;
  if (typeof feedbackPage !== "string" || !feedbackPage.startsWith("/") || feedbackPage.startsWith("//")) {
    throw new TypeError(`feedbackPage ${JSON.stringify(feedbackPage)}: give the path of the app's feedback page, e.g. "/feedback"`);
  }
  return feedbackPage;
}

/**
 * The app's routes flattened into branches, one per page (a leaf or an index route), ranked
 * by specificity so that declaration order matters only between equally specific patterns.
 * Shared: the server matches requests with it, the browser names navigations and loads code.
 */
export class RouteTable {
  readonly rootId: string;
  readonly notFoundId: string;
  /** The app's feedback page (AppConfig.feedbackPage), or null. */
  readonly feedbackPage: string | null;
  readonly #branches: Branch[] = [];
  /** Every form of every branch, ranked: the order paths are matched in. */
  readonly #forms: Form[];
  /** Paths of the forms without parameters, answered without a search: the same chain object every time. */
  readonly #static = new Map<string, { matched: MatchedRoutes; diagnostic: boolean }>();
  /** Every route's id by its full pattern, layouts included, outermost first (an index route shares its layout's). */
  readonly #idsByPattern = new Map<string, string[]>([["/", []]]);

  constructor(config: AppConfig) {
    this.rootId = routeId(config.root);
    this.notFoundId = routeId(config.notFound);
    this.feedbackPage = feedbackPageOf(config);
    this.#idsByPattern.get("/")?.push(this.rootId);
    this.#collect(config.routes, [], [this.rootId], false);
    this.#forms = rank(
      this.#branches.flatMap((branch, order) => {
        const optionals = branch.segments.filter((segment) => segment.kind === "param" && segment.optional).length;
        return expandOptional(branch.segments).map((segments) => ({ branch, segments, score: specificity(segments), optionals, order }));
      }),
    );
    // Each page once, at its best-ranked form.
    this.#branches = [...new Set(this.#forms.map((form) => form.branch))];
    for (const { branch, segments } of [...this.#forms].reverse()) {
      if (segments.every((segment) => segment.kind === "static")) {
        const matches = branch.ids.map((id) => ({ id, params: NO_PARAMS }));
        const path = `/${segments.map((segment) => (segment as { value: string }).value).join("/")}`;
        this.#static.set(path, { matched: { pattern: branch.pattern, matches }, diagnostic: branch.diagnostic });
      }
    }
  }

  #collect(routes: readonly RouteConfig[], parent: string[], ids: string[], diagnostic: boolean): void {
    for (const entry of routes) {
      const own = entry.index ? [] : splitPath(entry.path ?? "");
      const path = [...parent, ...own];
      const chain = [...ids, routeId(entry.file)];
      const gated = diagnostic || Boolean(entry.diagnostic);
      const full = `/${path.join("/")}`;
      this.#idsByPattern.set(full, [...(this.#idsByPattern.get(full) ?? []), routeId(entry.file)]);
      if (entry.children?.length) {
        this.#collect(entry.children, path, chain, gated);
      } else {
        this.#branches.push({ pattern: full, segments: parsePattern(full), ids: chain, diagnostic: gated });
      }
    }
  }

  /** Every page, most specific first: for tools that visit them all (the accessibility walk). */
  pages(): readonly Readonly<Branch>[] {
    return this.#branches;
  }

  /** The ids of the routes (layouts or pages) whose full pattern is this one, outermost first. */
  routeIds(pattern: string): readonly string[] {
    return this.#idsByPattern.get(pattern) ?? [];
  }

  /** The chain for a pathname, or null when no page is there. */
  match(pathname: string, { diagnostics }: { diagnostics: boolean }): MatchedRoutes | null {
    // Most requests name a static page exactly as its pattern: one lookup, no splitting.
    const exact = this.#static.get(pathname);
    if (exact && (diagnostics || !exact.diagnostic)) return exact.matched;
    const path = splitPath(pathname);
    const known = this.#static.get(`/${path.join("/")}`);
    if (known && (diagnostics || !known.diagnostic)) return known.matched;
    for (const { branch, segments } of this.#forms) {
      if (branch.diagnostic && !diagnostics) continue;
      const params = matchSegments(segments, path);
      if (params) return { pattern: branch.pattern, matches: branch.ids.map((id) => ({ id, params })) };
    }
    return null;
  }

  /** The not-found page, inside the root layout. */
  notFound(): MatchedRoutes {
    return {
      pattern: NOT_FOUND_ROUTE,
      matches: [
        { id: this.rootId, params: {} },
        { id: this.notFoundId, params: {} },
      ],
    };
  }
}
