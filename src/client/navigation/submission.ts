import { toFormData } from "../../shared/navigation/form-data";
import { navigationTarget } from "../../shared/navigation/navigation-target";
import type { NavigateOptions } from "../../shared/navigation/router-context";
import type { RouteAnswer } from "./core/fetch-route-data";
import { commit, followAction } from "./navigation";
import { PAGE } from "./core/requests";
import * as transition from "./core/transitions";
import { currentPath, landingCode, type PageLanding, pageAssets, type RouterCore } from "./router-core";

/**
 * A `<Form>`'s submission to a page's action, on the page's channel: it supersedes a pending
 * navigation and is superseded by the next. Shows the page the action answers with (the form's
 * page, with what it returned) or follows its redirect; "fallback" when the browser must submit.
 */
export async function submit(
  core: RouterCore,
  action: string,
  body: URLSearchParams | FormData,
  intent: Pick<NavigateOptions, "viewTransition"> = {},
): Promise<"done" | "fallback"> {
  const target = navigationTarget(action, core.env.location.href);
  if (target.kind !== "client") return "fallback";
  const { url } = target;
  const path = url.pathname + url.search;
  const ticket = core.requests.start(PAGE);
  const generation = core.store.state.invalidated;
  const formData = toFormData(body);
  core.store.apply(transition.submit, { path, formData });
  landingCode().catch(() => {});
  let answer: RouteAnswer;
  let landing: PageLanding | undefined;
  try {
    answer = await core.data.submit(url, body, ticket.signal);
    if (!ticket.isCurrent()) return "done";
    if (answer.kind === "redirect") {
      await followAction(core, answer.location, url, intent);
      return "done";
    }
    if (answer.kind === "state") landing = await pageAssets(core, answer.state);
  } catch {
    answer = { kind: "reload" };
  }
  if (!ticket.isCurrent()) return "done";
  if (answer.kind !== "state" || !landing) {
    core.store.apply(transition.fail);
    return "fallback";
  }
  commit(core, landing, answer.state, url, path === currentPath(core) ? "none" : "push", generation, intent);
  return "done";
}
