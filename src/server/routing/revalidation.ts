/** What revalidateTag and revalidatePath reach: each server app's page cache. */
export interface PageCacheService {
  revalidateTag(tag: string): Promise<void>;
  revalidatePath(path: string): Promise<void>;
}

// Every page cache of this process (one per app; tests run several), held weakly so a closed
// app's goes with it. A revalidation reaches them all, as it reaches every replica; the browser has none.
const caches = new Set<WeakRef<PageCacheService>>();

/** Called by the server for each app it builds. */
export function registerPageCache(cache: PageCacheService): void {
  caches.add(new WeakRef(cache));
}

function liveCaches(caller: string): PageCacheService[] {
  const live: PageCacheService[] = [];
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) live.push(cache);
    else caches.delete(ref);
  }
  if (live.length === 0) throw new Error(`${caller}() runs on the server, in an action, a resource route or a loader: this process has no page cache`);
  return live;
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
export async function revalidateTag(tag: string): Promise<void> {
  checkCacheTag(tag);
  await Promise.all(liveCaches("revalidateTag").map((cache) => cache.revalidateTag(tag)));
}

/** Drops every cached answer of the page at `path` (a path such as `/articles/1`, any query), on every replica. */
export async function revalidatePath(path: string): Promise<void> {
  if (typeof path !== "string" || !path.startsWith("/")) throw new TypeError(`revalidatePath needs a path starting with "/", not ${JSON.stringify(path)}`);
  await Promise.all(liveCaches("revalidatePath").map((cache) => cache.revalidatePath(path)));
}
