import type { FetchAnswer, FetcherSubmission } from "../../../shared/navigation/fetcher-request";
import { importWithRetry } from "../../recovery/import-with-retry";
import { leave } from "../core/leave";
import { fetcherChannel, type Requests } from "../core/requests";
import type { RouterStore } from "../core/router-store";
import * as transition from "../core/transitions";
import type { FetcherDeps } from "./fetcher-request";

/** What the fetchers need of the router, passed in by it: its store and requests, and how the page follows an action. */
export interface FetcherHost extends FetcherDeps {
  store: RouterStore;
  requests: Requests;
}

/** The request itself, from its own chunk, fetched on a fetcher's first request: most pages never make one. */
function request(host: FetcherHost, href: string, submission: FetcherSubmission | undefined, signal: AbortSignal): Promise<FetchAnswer> {
  return importWithRetry(() => import("./fetcher-request")).then(
    ({ fetcherRequest }) => fetcherRequest(host, href, submission, signal),
    // The chunk is gone with a deploy, even after its retries: the browser loads the page, as for a navigation.
    (): FetchAnswer => {
      leave(host.env, { kind: "load", href: host.env.location.href });
      return { kind: "left" };
    },
  );
}

/** The fetcher `key`'s request, on its own channel: a newer one of the same key supersedes it. */
export async function fetchFor(host: FetcherHost, key: string, href: string, submission: FetcherSubmission | undefined): Promise<void> {
  const { store } = host;
  const ticket = host.requests.start(fetcherChannel(key));
  const formData = submission?.formData;
  store.apply(transition.fetcherStart, key, formData);
  let answer: FetchAnswer;
  try {
    answer = await request(host, href, submission, ticket.signal);
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

/** Components using each fetcher key; the last one gone aborts the key's request and drops its state. */
export function fetcherRetainer(host: Pick<FetcherHost, "store" | "requests">): (key: string) => () => void {
  const users = new Map<string, number>();
  return (key) => {
    users.set(key, (users.get(key) ?? 0) + 1);
    return () => {
      const left = (users.get(key) ?? 1) - 1;
      if (left > 0) return void users.set(key, left);
      users.delete(key);
      host.requests.abort(fetcherChannel(key));
      host.store.apply(transition.fetcherDrop, key);
    };
  };
}
