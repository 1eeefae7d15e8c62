import type { FetcherSubmission } from "../../../shared/navigation/fetcher-submission";
import { importWithRetry } from "../../recovery/import-with-retry";
import { leave } from "../core/leave";
import { fetcherChannel } from "../core/requests";
import * as transition from "../core/transitions";
import type { FetcherHost } from "./fetcher-request";

/**
 * The fetcher `key`'s request, on its own channel: a newer one of the same key supersedes it.
 * It shows as started at once; the request and what its answer does are in a chunk of their
 * own, fetched on a fetcher's first request: most pages never make one.
 */
export async function fetchFor(host: FetcherHost, key: string, href: string, submission: FetcherSubmission | undefined): Promise<void> {
  const ticket = host.requests.start(fetcherChannel(key));
  host.store.apply(transition.fetcherStart, key, submission?.formData);
  let request: typeof import("./fetcher-request");
  try {
    request = await importWithRetry(() => import("./fetcher-request"));
  } catch {
    // The chunk is gone with a deploy, even after its retries: the browser loads the page, as for a navigation.
    leave(host.env, { kind: "load", href: host.env.location.href });
    return;
  }
  await request.fetchAndSettle(host, key, href, submission, ticket);
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
