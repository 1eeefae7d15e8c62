import type { FetcherSubmission } from "../../../shared/navigation/fetcher-submission";
import type { RouteError } from "../../../shared/routing/module";
import { navigationTarget } from "../../../shared/navigation/navigation-target";
import type { ClientRoutes } from "../core/client-routes";
import type { RouterEnvironment } from "../core/environment";
import type { RouteAnswer, RouteData } from "../core/fetch-route-data";
import { leave } from "../core/leave";
import type { Requests, Ticket } from "../core/requests";
import type { RouterStore } from "../core/router-store";
import * as transition from "./fetcher-answers";

export interface FetcherDeps {
  env: Pick<RouterEnvironment, "location" | "fetch" | "document">;
  routes: ClientRoutes;
  data: RouteData;
  diagnostics: boolean;
  /** Follows a redirect as a navigation. */
  follow(location: string, from: URL): void;
  /** Marks the page's data out of date and revalidates it; returns the generation to wait for. */
  invalidate(): number;
}

/**
 * What a fetcher's request came to: data (a loader's, or the action's with the data generation
 * the page must reach, see RouterState.freshAsOf), a redirect the router followed, or "left" when
 * only the browser itself could do it (another build, another origin) and the page is going.
 */
type FetchAnswer =
  | { kind: "data"; data: unknown; error?: RouteError; revalidation?: number }
  | { kind: "redirected" }
  | { kind: "left" };

/** What the fetchers need of the router, passed in by it: its store and requests, and how the page follows an action. */
export interface FetcherHost extends FetcherDeps {
  store: RouterStore;
  requests: Requests;
}

/**
 * What only the browser itself can do (another build answered, the network failed, another
 * origin): a plain form submission; for a load, this page loaded again.
 */
function leavePage(env: FetcherDeps["env"], href: string, submission: FetcherSubmission | undefined): FetchAnswer {
  leave(env, submission ? { kind: "submit", form: hiddenForm(env.document, href, submission.formData) } : { kind: "reload" });
  return { kind: "left" };
}

/** The submission as a plain form would post it (its text fields). */
function hiddenForm(document: FetcherDeps["env"]["document"], href: string, formData: FormData): HTMLFormElement {
  const form = document.createElement("form");
  form.method = "post";
  form.action = href;
  form.hidden = true;
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string") continue;
    const input = document.createElement("input");
    input.name = name;
    input.value = value;
    form.append(input);
  }
  return form;
}

/** Form fields as a urlencoded body, or multipart when a file is among them. */
function bodyOf(data: FormData): URLSearchParams | FormData {
  const fields = [...data.entries()];
  if (fields.some(([, value]) => typeof value !== "string")) return data;
  return new URLSearchParams(fields as [string, string][]);
}

/** A resource route's answer: its JSON, or its text. */
async function resourceAnswer(
  fetch: RouterEnvironment["fetch"],
  url: URL,
  body: URLSearchParams | FormData | undefined,
  signal: AbortSignal,
): Promise<FetchAnswer & { kind: "data" }> {
  const init: RequestInit = body ? { method: "POST", body, signal } : { signal };
  const response = await fetch(url, { ...init, credentials: "same-origin" });
  const json = response.headers.get("Content-Type")?.includes("json");
  const data: unknown = await (json ? response.json() : response.text());
  return { kind: "data", data, ...(response.ok ? {} : { error: { status: response.status, data } }) };
}

/**
 * A fetcher's request. A load asks only for the leaf route's loader; a submission runs the
 * action with no loader (`_routes` empty), then revalidates the page on screen. Either goes
 * through the data request, so the build check, CSRF defence and redirects are the navigations'.
 */
export async function fetcherRequest(
  deps: FetcherDeps,
  href: string,
  submission: FetcherSubmission | undefined,
  signal: AbortSignal,
): Promise<FetchAnswer> {
  const target = navigationTarget(href, deps.env.location.href);
  if (target.kind !== "client") return leavePage(deps.env, href, submission);
  const { url } = target;
  const body = submission && bodyOf(submission.formData);
  if (deps.routes.isResource(url.pathname, deps.diagnostics)) {
    const answer = await resourceAnswer(deps.env.fetch, url, body, signal);
    return body ? { ...answer, revalidation: deps.invalidate() } : answer;
  }
  const leaf = deps.routes.table.match(url.pathname, { diagnostics: deps.diagnostics })?.matches.at(-1)?.id;
  let answer: RouteAnswer;
  try {
    answer = body ? await deps.data.submit(url, body, signal, []) : await deps.data.load(url, signal, leaf ? [leaf] : undefined);
  } catch (error) {
    // Replaced by the fetcher's newer call; or the network failed, and a page load shows what happened.
    if (signal.aborted) throw error;
    return leavePage(deps.env, href, submission);
  }
  if (answer.kind === "reload") return leavePage(deps.env, href, submission);
  if (answer.kind === "redirect") {
    deps.follow(answer.location, url);
    return { kind: "redirected" };
  }
  const { state } = answer;
  const data = body ? state.actionData : state.data[state.matches.at(-1)?.id ?? ""];
  return {
    kind: "data",
    data,
    ...(state.error ? { error: state.error.error } : {}),
    ...(body ? { revalidation: deps.invalidate() } : {}),
  };
}

/** A started fetcher's request, then the fetcher's state from its answer unless a newer request of its key superseded it. */
export async function fetchAndSettle(host: FetcherHost, key: string, href: string, submission: FetcherSubmission | undefined, ticket: Ticket): Promise<void> {
  const { store } = host;
  const formData = submission?.formData;
  let answer: FetchAnswer;
  try {
    answer = await fetcherRequest(host, href, submission, ticket.signal);
  } catch {
    // Replaced by a newer call, or a resource route's answer could not be read.
    if (ticket.isCurrent()) store.apply(transition.fetcherFail, key);
    return;
  }
  if (!ticket.isCurrent() || answer.kind === "left") return;
  if (answer.kind === "redirected") return store.apply(transition.fetcherRedirect, key);
  const { data, error, revalidation } = answer;
  store.apply(transition.fetcherSettle, key, { data, error, formData, waitFor: revalidation });
}
