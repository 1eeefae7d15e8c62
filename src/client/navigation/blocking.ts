import type { BlockerArgs, BlockerFunction } from "../../shared/navigation/router-context";
import * as transition from "./core/transitions";
import type { RouterCore } from "./router-core";

/** useBlocker's function is asked from now on, until the returned function removes it. */
export function register({ store }: RouterCore, shouldBlock: BlockerFunction): () => void {
  store.apply(transition.registerBlocker, shouldBlock);
  return () => store.apply(transition.unregisterBlocker, shouldBlock);
}

/** Whether the blocker holds this navigation; when it does, `resume` runs on proceed(). */
export function holds({ store }: RouterCore, next: BlockerArgs["nextLocation"], historyAction: BlockerArgs["historyAction"], resume: () => void): boolean {
  const { shouldBlock } = store.state.blocking;
  if (!shouldBlock?.({ currentLocation: store.state.location, nextLocation: next, historyAction })) return false;
  store.apply(transition.block, { location: next, resume });
  return true;
}

/** The held navigation goes on; the blocker reads "proceeding" until it has landed (commit) or ended. */
export function proceed({ store }: RouterCore): void {
  const resume = store.state.blocking.held;
  if (!resume || !store.state.blocker.location) return;
  store.apply(transition.proceed);
  resume();
}

/** The held navigation is dropped. */
export function reset({ store }: RouterCore): void {
  store.apply(transition.unblock);
}

/** A proceeded navigation has ended without landing (refused, left, superseded): the blocker is free again. */
export function released({ store }: RouterCore): void {
  store.apply(transition.release);
}
