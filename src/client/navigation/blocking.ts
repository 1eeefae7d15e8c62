import type { BlockerArgs, BlockerFunction } from "../../shared/navigation/router-context";
import { UNBLOCKED } from "../../shared/navigation/router-state";
import type { RouterCore } from "./router-core";

export { UNBLOCKED };

/**
 * useBlocker's function and the navigation it holds. A held back/forward has already moved the
 * URL, so the router moves it back itself; `ownPop` names the popstate that move causes.
 */
export class Blocking {
  shouldBlock: BlockerFunction | undefined;
  held: (() => void) | undefined;
  /** The next popstate is the router's own: "restore" (the URL put back, ignored) or "proceed" (let through). */
  ownPop: "restore" | "proceed" | undefined;

  register(shouldBlock: BlockerFunction): () => void {
    this.shouldBlock = shouldBlock;
    return () => {
      if (this.shouldBlock === shouldBlock) this.shouldBlock = undefined;
    };
  }
}

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
