import { holds, released } from "./blocking";
import * as transition from "./core/transitions";
import { type HistoryEntry, locationOf, newKey } from "./history-entry";
import { go } from "./navigation";
import { currentPath, type RouterCore } from "./router-core";

/**
 * Back or forward: the entry's page, loaded unless only the fragment changed. When the blocker
 * holds it, the URL is put back (history.go the other way) until proceed() moves it again.
 */
export function popState(core: RouterCore, event: PopStateEvent): void {
  const { env, store } = core;
  const own = store.state.blocking.ownPop;
  store.apply(transition.popArrived);
  const entry = event.state as HistoryEntry | null;
  // The URL put back after a held pop is home again. Landing anywhere else (a second back in the
  // same task went first), it is a pop like any other: held and put back again, from there.
  if (own === "restore" && entry?.idx === store.state.entryIndex) return;
  const key = entry?.key ?? newKey();
  // An entry without one is new, made by the browser itself (a link to a fragment): the next one.
  const index = entry?.idx ?? store.state.entryIndex + 1;
  if (entry?.key === undefined || entry.idx === undefined) env.history.replaceState({ ...entry, key, idx: index }, "");
  const url = new URL(env.location.href);
  const state = entry?.usr ?? null;
  const delta = entry?.idx === undefined ? 0 : index - store.state.entryIndex;
  const resume = () => {
    store.apply(transition.expectOwnPop, "proceed");
    env.history.go(delta);
  };
  if (own !== "proceed" && delta !== 0 && holds(core, { ...locationOf(url), state }, "pop", resume)) {
    store.apply(transition.expectOwnPop, "restore");
    env.history.go(-delta);
    return;
  }
  // Another fragment of the page on screen: nothing to load.
  if (url.pathname + url.search === currentPath(core) && store.state.navigation.state === "idle") {
    store.apply(transition.popWithinPage, { location: locationOf(url, key, state), entryIndex: index });
    released(core);
    return;
  }
  void go(core, url, "pop", 0, { key, index, state }).finally(() => released(core));
}
