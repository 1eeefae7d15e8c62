import { hash } from "node:crypto";
import { type Writable, Writable as WritableStream } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { Context } from "koa";
import type { PageCachePolicy, ServerRouteModule } from "../../shared/routing/module";
import type { RouteMatch } from "../../shared/routing/route-table";
import type { RouteState } from "../../shared/routing/route-state";
import type { AppRoutes } from "../routing/app-routes";

/** `Cache-Control` for a declared page, so a CDN in front keeps it as long as the server does. */
function declaredCacheControl({ maxAge, staleWhileRevalidate = 0 }: PageCachePolicy): string {
  return `public, s-maxage=${maxAge}, stale-while-revalidate=${staleWhileRevalidate}`;
}

/**
 * The chain's `headers` exports merged root to leaf (a deeper route wins), for the routes that
 * render; a page that declares `cache` (its leaf, read in the same walk) decides its Cache-Control.
 */
export function routeHeaders(routes: AppRoutes, state: Omit<RouteState, "styles">): Record<string, string> | undefined {
  let merged: Record<string, string> | undefined;
  let policy: PageCachePolicy | undefined;
  const leaf = state.matches.length - 1;
  for (let depth = 0; depth <= leaf; depth++) {
    const match = state.matches[depth] as RouteMatch;
    const server = routes.serverHalf(match.id);
    const headers: ServerRouteModule["headers"] = server?.headers;
    if (headers) {
      const own = typeof headers === "function" ? headers({ data: state.data[match.id], params: match.params }) : headers;
      merged = { ...merged, ...own };
    }
    // A page showing an error is kept by nobody: its own declaration does not apply.
    if (depth === leaf && !state.error) policy = server?.cache;
    if (state.error?.boundaryId === match.id) break;
  }
  if (!policy) return merged;
  // The page's cache declaration decides its Cache-Control, over any route's `headers`.
  const own = Object.fromEntries(Object.entries(merged ?? {}).filter(([name]) => name.toLowerCase() !== "cache-control"));
  return { ...own, "Cache-Control": declaredCacheControl(policy) };
}

/** Whether the route's headers let shared caches keep a page: a `public` Cache-Control on a 200 (who it is for is isShareable's question). */
export function isPublicPage(headers: Record<string, string> | undefined, status: number): boolean {
  if (!headers || status !== 200) return false;
  const policy = Object.entries(headers).find(([name]) => name.toLowerCase() === "cache-control")?.[1];
  return policy !== undefined && /(^|,)\s*public\s*(,|$)/i.test(policy);
}

/**
 * Renders into memory, as text: a cacheable page needs its whole body for an ETag. Text, not
 * Buffers: bytes made per render would wait for the GC outside V8's heap, and a flood of misses
 * left malloc's arena fragmented (docs/decisions/0103-page-cache-memory-off-malloc.md).
 */
export function collectDocument(pipe: (destination: Writable) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const decoder = new StringDecoder("utf8");
    const sink = new WritableStream({
      decodeStrings: false,
      write(chunk: string | Uint8Array, _encoding, callback) {
        text += typeof chunk === "string" ? chunk : decoder.write(chunk);
        callback();
      },
    });
    sink.on("finish", () => resolve(text + decoder.end()));
    sink.on("error", reject);
    pipe(sink);
  });
}

/**
 * A cacheable page's body with its ETag: 304 without a body when the visitor's copy is current.
 * The ETag leaves out the nonce (fresh per response, so only the renderer wrote it), so every
 * response of the same page has the same one.
 */
export function answerCacheable(ctx: Context, body: string, nonce: string): void {
  ctx.etag = hash("sha256", body.replaceAll(`nonce="${nonce}"`, ""), "base64url").slice(0, 27);
  ctx.body = body;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
    // A 304 updates the headers of the copy the browser keeps, whose scripts carry an earlier nonce.
    ctx.res.removeHeader("Content-Security-Policy");
  }
}
