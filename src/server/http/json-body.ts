import type { Context } from "koa";
import { jsonText } from "../../shared/json/json-text";

/**
 * A JSON answer, serialised here and typed directly. Koa serialises an object body itself, but
 * first tests it against the fetch globals (`instanceof Response`), and the first such test loads
 * Node's bundled undici, paid by /readyz at start-up (docs/decisions/0016-start-up-loads-on-first-use.md).
 * Setting `ctx.type` would load mime-types (see lazyRequire in scripts/build/server-plugins.mjs).
 */
export function sendJson(ctx: Context, value: unknown): void {
  // Serialised first: a value JSON cannot carry is a server error before any header is set.
  const text = jsonText(value, "the answer");
  ctx.set("Content-Type", "application/json; charset=utf-8");
  ctx.body = text;
}
