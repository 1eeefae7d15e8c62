import type { Params } from "./match";
import type { RequestContext } from "./request";

/**
 * A page's opt-in to the server's page cache (its server half's `cache` export): its answer is
 * kept per URL and build, served for `maxAge` seconds, then for `staleWhileRevalidate` more
 * while one background render refreshes it. `tags` name the data it shows, for revalidateTag();
 * a function of the page's params and parsed query when the tags depend on them.
 */
export interface PageCachePolicy {
  maxAge: number;
  staleWhileRevalidate?: number;
  tags?: readonly string[] | ((args: { params: Params; search: unknown }) => readonly string[]);
}

/** The platform's page cache as route code reaches it: through its request context's services. */
export interface PageCacheService {
  revalidateTag(tag: string): Promise<void>;
  revalidatePath(path: string): Promise<void>;
}

declare module "./request" {
  interface ActionServices {
    pageCache?: PageCacheService;
  }
}

const TAG = /^[\x21-\x7e]{1,256}$/;

/** Throws a TypeError naming what is wrong: a tag is 1 to 256 printable ASCII characters without spaces. */
export function checkCacheTag(tag: unknown): asserts tag is string {
  if (typeof tag !== "string" || !TAG.test(tag)) throw new TypeError(`cache tag ${JSON.stringify(tag)} is not 1 to 256 printable ASCII characters without spaces`);
}

/**
 * Drops every cached page carrying `tag`, on every replica (through Redis when there is one),
 * so the next request renders afresh. Await it before redirecting: the redirect then shows the new page.
 */
export function revalidateTag(context: RequestContext, tag: string): Promise<void> {
  checkCacheTag(tag);
  return context.services.pageCache?.revalidateTag(tag) ?? Promise.resolve();
}

/** Drops every cached answer of the page at `path` (a path such as `/articles/1`, any query), on every replica. */
export function revalidatePath(context: RequestContext, path: string): Promise<void> {
  if (typeof path !== "string" || !path.startsWith("/")) throw new TypeError(`revalidatePath needs a path starting with "/", not ${JSON.stringify(path)}`);
  return context.services.pageCache?.revalidatePath(path) ?? Promise.resolve();
}
