import type { AppConfig } from "./config";

/**
 * The route table's patterns computed by the compiler from `defineApp`'s literal types: nothing
 * is generated, so the types cannot go stale (docs/decisions/0056-typed-routes-from-the-table.md).
 */

type Trim<Path extends string> = Path extends `/${infer Rest}` ? Trim<Rest> : Path extends `${infer Rest}/` ? Trim<Rest> : Path;
type Join<Parent extends string, Path extends string> = Trim<Path> extends "" ? Parent : `${Parent}/${Trim<Path>}`;
type Full<Path extends string> = Path extends "" ? "/" : Path;

/** One entry of the table: its full pattern, and whether it is a page (a leaf or an index route) or a layout. */
interface Entry<Pattern extends string, Page extends boolean> {
  pattern: Pattern;
  page: Page;
}

type EntriesOf<Routes, Parent extends string> = Routes extends readonly (infer Route)[] ? EntryOf<Route, Parent> : never;

type EntryOf<Route, Parent extends string> = Route extends { index: true }
  ? Entry<Full<Parent>, true>
  : Route extends { path: infer Path extends string }
    ? Route extends { children?: infer Children extends readonly [unknown, ...unknown[]] }
      ? Entry<Full<Join<Parent, Path>>, false> | EntriesOf<Children, Join<Parent, Path>>
      : Entry<Full<Join<Parent, Path>>, true>
    : never;

/** Every entry of an app's table, the root layout's `/` included. */
export type TableEntries<App extends AppConfig> = Entry<"/", false> | EntriesOf<App["routes"], "">;

type SegmentParam<Segment extends string> = Segment extends `:${infer Name}` ? Name : Segment extends "*" ? "*" : never;

/** The parameter names of a pattern: `:name` segments, and `*` for a trailing splat. */
export type ParamNames<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}`
  ? SegmentParam<Head> | ParamNames<Tail>
  : SegmentParam<Pattern>;

/** The params a pattern gives its route: `"/notes/:id"` gives `{ id: string }`, a trailing `*` its splat as `"*"`. */
export type RouteParams<Pattern extends string> = { readonly [Name in ParamNames<Pattern>]: string };
