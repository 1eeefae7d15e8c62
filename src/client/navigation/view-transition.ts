import { flushSync } from "react-dom";
import type { RouterCore } from "./router-core";
import type { BrowserRouterState } from "./router-store";

interface TransitionDocument {
  startViewTransition?(update: () => void): { finished: Promise<void> };
}

/**
 * Shows a change of the store: inside `document.startViewTransition` when the navigation asked
 * for one and the browser has it (React renders the new page synchronously in the callback, so
 * the browser snapshots it), else at once.
 */
export function show(core: RouterCore, change: Partial<BrowserRouterState>, viewTransition: boolean | undefined): void {
  const { store } = core;
  const document = core.env.document as TransitionDocument;
  if (!viewTransition || typeof document.startViewTransition !== "function") {
    store.set({ ...change, viewTransition: null });
    return;
  }
  const running = store.state.viewTransition;
  const transition = document.startViewTransition(() => flushSync(() => store.set(change)));
  const finish = () => {
    if (store.state.viewTransition === running) store.set({ viewTransition: null });
  };
  transition.finished.then(finish, finish);
}
