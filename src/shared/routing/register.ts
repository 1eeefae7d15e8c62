import type { AppConfig } from "./config";
import type { Params } from "./match";
import type { RouteParams, TableEntries } from "./route-patterns";

/**
 * Where the app registers its route table once, by declaration merging, so that route modules,
 * `href()` and the hooks know its patterns:
 *
 *     declare module "#outpost" {
 *       interface Register { app: typeof app }
 *     }
 *
 * Each key is one table (a mounted fragment or a test's table may add its own); their patterns
 * are pooled. Without a registration every pattern is allowed and params are loosely typed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface Register {}

/**
 * Pages' query schemas by full pattern, registered beside each schema so that `href()` types a
 * link's `search` by it (the browser never imports the server half):
 *
 *     declare module "#outpost" {
 *       interface RouteSearch { "/notes": typeof searchParams }
 *     }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface RouteSearch {}

type RegisteredApp = Extract<Register[keyof Register], AppConfig>;
type Entries = [RegisteredApp] extends [never] ? { pattern: string; page: boolean } : TableEntries<RegisteredApp>;

/** Every pattern of the registered table: its pages' and its layouts'. */
export type RoutePattern = Entries["pattern"];

/** The patterns a link can go to: the table's pages (leaves and index routes), not layouts alone. */
export type PagePattern = Extract<Entries, { page: true }>["pattern"];

/** A route's params by its pattern, or the loose `Params` when no pattern is named (`never`). */
export type ParamsOf<Pattern extends RoutePattern> = [Pattern] extends [never] ? Params : RouteParams<Pattern>;
