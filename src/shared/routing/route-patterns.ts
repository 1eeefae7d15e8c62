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

type SegmentsOf<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}` ? Head | SegmentsOf<Tail> : Pattern;
type RequiredName<Segment extends string> = Segment extends `:${string}?` ? never : Segment extends `:${infer Name}` ? Name : Segment extends "*" ? "*" : never;
type OptionalName<Segment extends string> = Segment extends `:${infer Name}?` ? Name : never;

/** The names of a pattern's required params: `:name` segments, and `*` for a trailing splat. */
export type RequiredParamNames<Pattern extends string> = RequiredName<SegmentsOf<Pattern>>;

/** The names of a pattern's optional params: `:name?` segments. */
export type OptionalParamNames<Pattern extends string> = OptionalName<SegmentsOf<Pattern>>;

/** The parameter names of a pattern: `:name` and `:name?` segments, and `*` for a trailing splat. */
export type ParamNames<Pattern extends string> = RequiredParamNames<Pattern> | OptionalParamNames<Pattern>;

/** One object type for an intersection, so that the compiler shows (and compares) it as written. */
export type Flatten<Type> = { [Key in keyof Type]: Type[Key] };

/**
 * The params a pattern gives its route: `"/notes/:id"` gives `{ id: string }`, a trailing `*` its
 * splat as `"*"`, and `"/:lang?/about"` gives `{ lang?: string | undefined }` (absent when the path has none).
 */
export type RouteParams<Pattern extends string> = Flatten<
  { readonly [Name in RequiredParamNames<Pattern>]: string } & { readonly [Name in OptionalParamNames<Pattern>]?: string | undefined }
>;
