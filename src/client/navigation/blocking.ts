import type { BlockerArgs } from "../../shared/navigation/router-context";
import * as transition from "./core/transitions";
import type { RouterCore } from "./router-core";

export { Blocking } from "./blocking-state";

/** Whether the blocker holds this navigation; when it does, `resume` runs on proceed(). */
export function holds(core: RouterCore, next: BlockerArgs["nextLocation"], historyAction: BlockerArgs["historyAction"], resume: () => void): boolean {
  const { blocking, store } = core;
  if (!blocking.shouldBlock?.({ currentLocation: store.state.location, nextLocation: next, historyAction })) return false;
  blocking.held = resume;
  store.apply(transition.block, next);
  return true;
}

/** The held navigation goes on; the blocker reads "proceeding" until it has landed (commit) or ended. */
export function proceed(core: RouterCore): void {
  const { blocking, store } = core;
  const resume = blocking.held;
  if (!resume || !store.state.blocker.location) return;
  blocking.held = undefined;
  store.apply(transition.proceed);
  resume();
}

/** The held navigation is dropped. */
export function reset(core: RouterCore): void {
  core.blocking.held = undefined;
  core.store.apply(transition.unblock);
}

/** A proceeded navigation has ended without landing (refused, left, superseded): the blocker is free again. */
export function released(core: RouterCore): void {
  core.store.apply(transition.release);
}
