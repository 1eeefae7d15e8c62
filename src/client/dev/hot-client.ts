import { DEV_EVENTS_PATH, DEV_VERSION_TIMING, type DevState, type HotUpdate } from "../../shared/dev/hot-protocol";
import type { ClientRoutes } from "../navigation/core/client-routes";
import { DEV_ERROR_EVENT } from "./error-hooks";
import { applyClientPart, applyServerPart } from "./apply-update";
import { combineClientParts } from "./combine-updates";
import { hideOverlay, showBuildProblems, showRuntimeError } from "./overlay";

/**
 * Development only: listens to the dev server's event stream and applies each rebuild.
 * A rebuild's client part (route chunks, stylesheets) arrives as `update` from the server
 * that is about to be replaced; its server part (a reload, loader data to re-fetch) is applied
 * once the page's stream has reconnected to the new server, whose `hello` lists the updates
 * since the page last heard from one.
 */
export function startHotUpdates(routes: ClientRoutes): void {
  let served = documentVersion(); // the rebuild whose server this page last heard from
  let applied = served ?? 0; // the latest rebuild whose client part this page has applied
  let queue = Promise.resolve();
  const inOrder = (work: () => Promise<void>) => {
    queue = queue.then(work, work);
  };
  let applying = false;
  /** Client parts of `updates` not applied yet, then the server parts of those the server runs. */
  const apply = async (updates: HotUpdate[], serverVersion: number) => {
    const fresh = updates.filter((update) => update.version > applied);
    const served = updates.filter((update) => update.version <= serverVersion);
    applied = Math.max(applied, ...updates.map((update) => update.version));
    // Nothing new (a client part applied before the restart): the page, and an error it showed, stay.
    if (fresh.length === 0 && !served.some((update) => update.revalidate)) return;
    // A good update clears the last one's error; an error while applying this one shows anew.
    hideOverlay("runtime");
    applying = true;
    try {
      await applyClientPart(combineClientParts(fresh), routes);
      await applyServerPart(served);
    } catch (error) {
      showRuntimeError(error);
    } finally {
      applying = false;
    }
  };

  const events = new EventSource(DEV_EVENTS_PATH);
  events.addEventListener("hello", (event) => {
    const state = JSON.parse((event as MessageEvent<string>).data) as DevState;
    showBuildProblems(state.problems);
    const since = served ?? state.version;
    // Updates older than the server remembers, or a server of another session: start afresh.
    const missed = state.updates.filter((update) => update.version > since);
    if (state.version < since || (state.version > since && missed[0]?.version !== since + 1)) {
      return window.location.reload();
    }
    if (served === null) applied = Math.max(applied, state.version); // the build this page came from
    served = state.version;
    // Also those pushed to this server ahead of its replacement, which this page may have missed.
    if (missed.length > 0) inOrder(() => apply(missed, state.version));
  });
  events.addEventListener("update", (event) => {
    const update = JSON.parse((event as MessageEvent<string>).data) as HotUpdate;
    hideOverlay("build");
    inOrder(async () => {
      await apply([update], served ?? 0);
      // Tells the dev script it may now replace the server this page fetched the update from.
      await fetch(`${DEV_EVENTS_PATH}?applied=${update.version}`, { method: "POST" }).catch(() => {});
    });
  });
  events.addEventListener("problems", (event) => {
    showBuildProblems(JSON.parse((event as MessageEvent<string>).data));
  });
  // A re-render that fails as an update is applied (Fast Refresh renders synchronously) is caught
  // by an error boundary; say so here too. Errors at other times are the page's own business.
  window.addEventListener(DEV_ERROR_EVENT, (event) => {
    if (applying) showRuntimeError((event as CustomEvent<unknown>).detail);
  });
}

/** The rebuild the server that sent this document served, when it said (see DEV_VERSION_TIMING). */
function documentVersion(): number | null {
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  const timing = navigation?.serverTiming.find((entry) => entry.name === DEV_VERSION_TIMING);
  return timing ? Number(timing.description) : null;
}
