import { createHash } from "node:crypto";
import { type Writable, Writable as WritableStream } from "node:stream";
import type { Context } from "koa";
import type { ServerRouteModule } from "../../shared/routing/module";
import type { RouteState } from "../../shared/routing/route-state";
import type { AppRoutes } from "../routing/app-routes";
import { cachePolicyOf, declaredCacheControl } from "../page-cache/cache-plan";

/** The chain's `headers` exports merged root to leaf (a deeper route wins), for the routes that render. */
export function routeHeaders(routes: AppRoutes, state: Omit<RouteState, "styles">): Record<string, string> | undefined {
  let merged: Record<string, string> | undefined;
  for (const match of state.matches) {
    const headers: ServerRouteModule["headers"] = routes.serverHalf(match.id)?.headers;
    if (headers) {
      const own = typeof headers === "function" ? headers({ data: state.data[match.id], params: match.params }) : headers;
      merged = { ...merged, ...own };
    }
    if (state.error?.boundaryId === match.id) break;
  }
  const policy = state.error ? undefined : cachePolicyOf(routes, state.matches);
  if (!policy) return merged;
  // The page's cache declaration decides its Cache-Control, over any route's `headers`.
  const own = Object.fromEntries(Object.entries(merged ?? {}).filter(([name]) => name.toLowerCase() !== "cache-control"));
  return { ...own, "Cache-Control": declaredCacheControl(policy) };
}

/** Whether the page may be kept by shared caches: a `public` Cache-Control on a 200 nobody personal. */
export function isPublicPage(headers: Record<string, string> | undefined, status: number, personal: boolean): boolean {
  if (!headers || status !== 200 || personal) return false;
  const policy = Object.entries(headers).find(([name]) => name.toLowerCase() === "cache-control")?.[1];
  return policy !== undefined && /(^|,)\s*public\s*(,|$)/i.test(policy);
}

/** Renders into memory: a cacheable page needs its whole body for an ETag. */
export function collectDocument(pipe: (destination: Writable) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new WritableStream({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
    });
    sink.on("finish", () => resolve(Buffer.concat(chunks)));
    sink.on("error", reject);
    pipe(sink);
  });
}

/**
 * A cacheable page's body with its ETag: 304 without a body when the visitor's copy is current.
 * The ETag leaves out the nonce (fresh per response, so only the renderer wrote it), so every
 * response of the same page has the same one.
 */
export function answerCacheable(ctx: Context, body: Buffer, nonce: string): void {
  const hash = createHash("sha256");
  const attribute = Buffer.from(`nonce="${nonce}"`, "latin1");
  let from = 0;
  for (let at = body.indexOf(attribute); at >= 0; at = body.indexOf(attribute, from)) {
    hash.update(body.subarray(from, at));
    from = at + attribute.length;
  }
  ctx.etag = hash.update(body.subarray(from)).digest("base64url").slice(0, 27);
  ctx.body = body;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
    // A 304 updates the headers of the copy the browser keeps, whose scripts carry an earlier nonce.
    ctx.res.removeHeader("Content-Security-Policy");
  }
}
