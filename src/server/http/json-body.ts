import type { Context } from "koa";

/**
 * A JSON answer, serialised here and typed directly. Koa serialises an object body itself, but
 * first tests it against the fetch globals (`instanceof Response`), and the first such test loads
 * Node's bundled undici, paid by /readyz at start-up (docs/decisions/0016-start-up-loads-on-first-use.md).
 * Setting `ctx.type` would load mime-types (see lazyRequire in scripts/build/server-plugins.mjs).
 */
export function sendJson(ctx: Context, value: unknown): void {
  ctx.set("Content-Type", "application/json; charset=utf-8");
  ctx.body = JSON.stringify(value);
}
