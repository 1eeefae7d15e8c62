import { randomUUID } from "node:crypto";
import type { ActionContext, PageCachePolicy } from "#outpost";
import { httpError, redirect, revalidateTag } from "#outpost/server";

/** Kept a minute by the page cache (every replica's, with Redis), dropped by its form. */
export const cache: PageCachePolicy = { maxAge: 60, tags: ["diagnostics"] };

/** A new id on every render: the same id on two answers means the second came from the cache. */
export function load() {
  return { renderId: randomUUID(), renderedAt: new Date().toISOString() };
}

/** `intent=revalidate` drops the page everywhere, then shows it rendered afresh. */
export async function action(context: ActionContext) {
  const { intent } = (context.body ?? {}) as { intent?: unknown };
  if (intent !== "revalidate") httpError(400, "intent must be revalidate");
  await revalidateTag("diagnostics");
  redirect("/diagnostics/page-cache", 303);
}
