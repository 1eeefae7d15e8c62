import type { RouteState } from "../../shared/routing/route-state";
import type { RouterEnvironment } from "./core/environment";
import type { RouterStore } from "./core/router-store";
import type * as transition from "./core/transitions";
import { type HistoryEntry, type HistoryMode, locationOf, type NavigationIntent, newKey } from "./history-entry";
import { show } from "./view-transition";

/** Shows a page: a new history entry for push and replace, the same location for "none". */
export function commit(
  core: { env: RouterEnvironment; store: RouterStore },
  page: RouteState,
  url: URL,
  mode: HistoryMode,
  generation: number,
  intent: NavigationIntent,
): void {
  const { env, store } = core;
  let moved: transition.Landing["moved"];
  if (mode !== "none") {
    const key = intent.key ?? newKey();
    const state = intent.state ?? null;
    const { entryIndex } = store.state;
    // A pop (or a redirect met on one, followed as "replace") lands on the entry it reached, not the one left.
    const index = mode === "push" ? entryIndex + 1 : (intent.index ?? entryIndex);
    if (mode !== "pop") {
      const entry: HistoryEntry = { key, idx: index, usr: state };
      env.history[mode === "push" ? "pushState" : "replaceState"](entry, "", url.pathname + url.search + url.hash);
    }
    moved = { location: locationOf(url, key, state), historyAction: mode, entryIndex: index, preventScrollReset: intent.preventScrollReset === true };
  }
  show(core, { page, moved, generation }, intent.viewTransition);
}
