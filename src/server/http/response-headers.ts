import type { Context } from "koa";
import { headerPairs, type ResponseHeaders } from "../../shared/routing/signals";

/** Sets or appends one header; Set-Cookie is always appended, so one answer can carry several. */
export function applyHeader(ctx: Context, name: string, value: string, mode: "set" | "append"): void {
  if (mode === "append" || name.toLowerCase() === "set-cookie") ctx.append(name, value);
  else ctx.set(name, value);
}

/** A route's headers (a redirect's, an httpError's, an action's) onto the answer. */
export function applyHeaders(ctx: Context, headers: ResponseHeaders | undefined): void {
  for (const [name, value] of headerPairs(headers)) applyHeader(ctx, name, value, "set");
}
