import type { FetchAnswer, FetcherSubmission } from "../../../shared/navigation/fetcher-request";
import type { RouteError } from "../../../shared/routing/module";
import { importWithRetry } from "../../recovery/import-with-retry";
import { followAction, invalidate } from "../navigation";
import { fetcherChannel } from "../requests";
import { leave, type RouterCore } from "../router-core";
import { type FetcherRecord, IDLE_FETCHER } from "./fetcher-status";

const FAILED: RouteError = { message: "the request failed" };

function update(core: RouterCore, key: string, change: (fetcher: FetcherRecord) => FetcherRecord): void {
  const fetchers = new Map(core.store.state.fetchers as ReadonlyMap<string, FetcherRecord>);
  fetchers.set(key, change(fetchers.get(key) ?? IDLE_FETCHER));
  core.store.set({ fetchers });
}

/** The request itself, from its own chunk, fetched on a fetcher's first request: most pages never make one. */
function request(core: RouterCore, href: string, submission: FetcherSubmission | undefined, signal: AbortSignal): Promise<FetchAnswer> {
  const deps = {
    ...core,
    follow: (location: string, from: URL) => void followAction(core, location, from, {}),
    invalidate: () => invalidate(core, "action"),
  };
  return importWithRetry(() => import("./fetcher-request")).then(
    ({ fetcherRequest }) => fetcherRequest(deps, href, submission, signal),
    // The chunk is gone with a deploy, even after its retries: the browser loads the page, as for a navigation.
    (): FetchAnswer => {
      leave(core, core.env.location.href);
      return { kind: "left" };
    },
  );
}

/** The fetcher `key`'s request, on its own channel: a newer one of the same key supersedes it. */
export async function fetchFor(core: RouterCore, key: string, href: string, submission: FetcherSubmission | undefined): Promise<void> {
  const ticket = core.requests.start(fetcherChannel(key));
  const formData = submission?.formData;
  update(core, key, (fetcher) => ({ ...fetcher, state: formData ? "submitting" : "loading", formData, waitFor: undefined }));
  let answer: FetchAnswer;
  try {
    answer = await request(core, href, submission, ticket.signal);
  } catch {
    // Replaced by a newer call, or a resource route's answer could not be read.
    if (ticket.isCurrent()) update(core, key, (fetcher) => ({ ...fetcher, state: "idle", formData: undefined, error: FAILED }));
    return;
  }
  if (!ticket.isCurrent() || answer.kind === "left") return;
  if (answer.kind === "redirected") return update(core, key, (fetcher) => ({ ...fetcher, state: "idle", formData: undefined }));
  const { data, error, revalidation } = answer;
  // After an action: loading, with what was sent, until the page shows data loaded after it.
  const waiting = revalidation !== undefined && core.store.state.freshAsOf < revalidation;
  update(core, key, () =>
    waiting ? { state: "loading", data, error, formData, waitFor: revalidation } : { state: "idle", data, error, formData: undefined },
  );
}

/** Components using each fetcher key; the last one gone aborts the key's request and drops its state. */
export function fetcherRetainer(core: RouterCore): (key: string) => () => void {
  const users = new Map<string, number>();
  return (key) => {
    users.set(key, (users.get(key) ?? 0) + 1);
    return () => {
      const left = (users.get(key) ?? 1) - 1;
      if (left > 0) return void users.set(key, left);
      users.delete(key);
      core.requests.abort(fetcherChannel(key));
      if (!core.store.state.fetchers.has(key)) return;
      const fetchers = new Map(core.store.state.fetchers);
      fetchers.delete(key);
      core.store.set({ fetchers });
    };
  };
}
