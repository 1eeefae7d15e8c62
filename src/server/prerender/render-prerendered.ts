import type Koa from "koa";
import type { Context } from "koa";
import { BUILD_HEADER, dataUrl, pagePathOf } from "../../shared/routing/data-request";
import { captureStored, type StoredAnswer } from "../page-cache/stored-page";
import type { PrerenderHooks } from "./prerender-hooks";
import type { PrerenderedPage } from "./prerendered-pages";
import { PrerenderError } from "../request/core/prerender-error";
import type { PrerenderTarget } from "./prerender-urls";

type Rendered = { ok: true; pages: PrerenderedPage[] } | { ok: false; failures: string[] };

interface Listening {
  port: number;
  close: () => Promise<void>;
}

/** Why an answer could not be kept, for the build's message. */
function unkeptReason(ctx: Context): string {
  if (ctx.status !== 200) return `it answered ${ctx.status}`;
  if (ctx.response.get("Set-Cookie")) return "it set a cookie";
  return "its answer streams (deferred values): a prerendered page's loaders return settled values";
}

/**
 * Renders each target's document and data answer through the app over real HTTP (its whole
 * middleware chain, as a visitor would get them) and keeps them as stored answers; any render
 * error or answer that cannot be kept is a failure naming the route.
 */
export async function renderPrerendered(
  targets: readonly PrerenderTarget[],
  buildId: string,
  makeApp: (hooks: PrerenderHooks) => Koa,
  serve: (app: Koa) => Promise<Listening>,
): Promise<Rendered> {
  const kept = new Map<string, StoredAnswer>();
  const failures: string[] = [];
  const patternOf = (ctx: Context) => targets.find((target) => target.path === (pagePathOf(ctx.path) ?? ctx.path))?.pattern ?? ctx.path;
  const hooks: PrerenderHooks = {
    onAnswer: (ctx) => {
      const kind = pagePathOf(ctx.path) === null ? "document" : "data";
      const stored = captureStored(ctx, kind);
      if (stored) kept.set(`${kind} ${ctx.path}`, stored);
      else failures.push(`route ${patternOf(ctx)} (${ctx.path}): its ${kind === "data" ? "data answer" : "document"} cannot be kept: ${unkeptReason(ctx)}`);
    },
    onRenderError: (error, ctx) => {
      failures.push(error instanceof PrerenderError ? error.message : `route ${patternOf(ctx)} (${ctx.path}) failed to render: ${String(error)}`);
    },
  };
  const server = await serve(makeApp(hooks));
  const pages: PrerenderedPage[] = [];
  try {
    for (const { pattern, path } of targets) {
      const origin = `http://127.0.0.1:${server.port}`;
      await (await fetch(origin + path)).arrayBuffer();
      await (await fetch(origin + dataUrl(path, ""), { headers: { [BUILD_HEADER]: buildId } })).arrayBuffer();
      const document = kept.get(`document ${path}`);
      const data = kept.get(`data ${dataUrl(path, "")}`);
      if (!document || !data) continue;
      // The data answer carries the page's own status: an error shown in the page is no page to keep.
      const { status } = JSON.parse(data.body) as { status?: number };
      if (status !== 200) failures.push(`route ${pattern} (${path}): its page answered ${status}`);
      else pages.push({ path, pattern, document, data });
    }
  } finally {
    await server.close();
  }
  return failures.length > 0 ? { ok: false, failures: [...new Set(failures)] } : { ok: true, pages };
}
