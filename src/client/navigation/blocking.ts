import type { BlockerArgs } from "../../shared/navigation/router-context";
import { UNBLOCKED } from "../../shared/navigation/router-state";
import type { RouterCore } from "./router-core";

export { Blocking } from "./blocking-state";
export { UNBLOCKED };

/** Whether the blocker holds this navigation; when it does, `resume` runs on proceed(). */
export function holds(core: RouterCore, next: BlockerArgs["nextLocation"], historyAction: BlockerArgs["historyAction"], resume: () => void): boolean {
  const { blocking, store } = core;
  if (!blocking.shouldBlock?.({ currentLocation: store.state.location, nextLocation: next, historyAction })) return false;
  blocking.held = resume;
  store.set({ blocker: { state: "blocked", location: next } });
  return true;
}

/** The held navigation goes on; the blocker reads "proceeding" until it has landed (commit) or ended. */
export function proceed(core: RouterCore): void {
  const { blocking, store } = core;
  const resume = blocking.held;
  const { location } = store.state.blocker;
  if (!resume || !location) return;
  blocking.held = undefined;
  store.set({ blocker: { state: "proceeding", location } });
  resume();
}

/** The held navigation is dropped. */
export function reset(core: RouterCore): void {
  core.blocking.held = undefined;
  if (core.store.state.blocker.state !== "unblocked") core.store.set({ blocker: UNBLOCKED });
}

/** A proceeded navigation has ended without landing (refused, left, superseded): the blocker is free again. */
export function released(core: RouterCore): void {
  if (core.store.state.blocker.state === "proceeding") core.store.set({ blocker: UNBLOCKED });
}
