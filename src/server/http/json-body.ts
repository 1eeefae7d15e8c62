import type { Context } from "koa";

/**
 * A JSON answer, serialised here. Koa serialises an object body itself, but first tests it
 * against the fetch globals (`instanceof Response`), and the first such test loads Node's
 * bundled undici: ≈ 20 ms, paid by /readyz at start-up (measured in start-up profiles).
 */
export function sendJson(ctx: Context, value: unknown): void {
  ctx.type = "application/json";
  ctx.body = JSON.stringify(value);
}
