import type { BlockerFunction } from "../../shared/navigation/router-context";

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
