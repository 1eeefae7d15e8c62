import { href } from "../../shared/routing/href";
import type { Params } from "../../shared/routing/match";
import type { AppRoutes } from "../routing/app-routes";

/** One URL the build renders: the page's full pattern and its path. */
export interface PrerenderTarget {
  pattern: string;
  path: string;
}

/** A page's declaration the build cannot use: the build stops, naming the route. */
export class PrerenderDeclarationError extends Error {
  override name = "PrerenderDeclarationError";
}

/**
 * Every URL the app's pages declare to be built (their leaf's `prerender` export): the page's
 * own path for `true`, one per params object for a list. Diagnostics pages are listed too (the
 * server serves them only with ENABLE_DIAGNOSTIC_ROUTES=true).
 */
export async function prerenderTargets(routes: AppRoutes): Promise<PrerenderTarget[]> {
  const targets: PrerenderTarget[] = [];
  for (const branch of routes.table.pages()) {
    const leaf = branch.ids[branch.ids.length - 1] as string;
    if (routes.isResource(leaf)) continue;
    const declared = routes.serverHalf(leaf)?.prerender;
    if (declared === undefined || (declared as unknown) === false) continue;
    const hasParams = branch.segments.some((segment) => segment.kind !== "static");
    for (const params of await paramsToBuild(branch.pattern, declared, hasParams)) {
      targets.push({ pattern: branch.pattern, path: pathOf(branch.pattern, params) });
    }
  }
  return targets;
}

async function paramsToBuild(pattern: string, declared: unknown, hasParams: boolean): Promise<readonly Params[]> {
  if (declared === true) {
    if (hasParams) throw new PrerenderDeclarationError(`route ${pattern} has params: its \`prerender\` must list them, e.g. () => [{ id: "1" }]`);
    return [{}];
  }
  if (typeof declared !== "function") throw new PrerenderDeclarationError(`route ${pattern}: \`prerender\` must be true or a function listing params`);
  const list: unknown = await declared();
  if (!Array.isArray(list) || list.some((params) => typeof params !== "object" || params === null)) {
    throw new PrerenderDeclarationError(`route ${pattern}: \`prerender\` must return a list of params objects`);
  }
  return list as Params[];
}

function pathOf(pattern: string, params: Params): string {
  try {
    return href(pattern as "/", params as never);
  } catch (error) {
    throw new PrerenderDeclarationError(`route ${pattern}: ${(error as Error).message}`);
  }
}
