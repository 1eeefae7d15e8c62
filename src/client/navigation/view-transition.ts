import { flushSync } from "react-dom";
import * as transition from "./core/transitions";
import type { RouterEnvironment } from "./core/environment";
import type { RouterStore } from "./core/router-store";

interface TransitionDocument {
  startViewTransition?(update: () => void): { finished: Promise<void> };
}

/**
 * Shows a page (transition.settle): inside `document.startViewTransition` when the navigation
 * asked for one and the browser has it (React renders the new page synchronously in the callback,
 * so the browser snapshots it), else at once.
 */
export function show(
  { store, env }: { store: RouterStore; env: Pick<RouterEnvironment, "document"> },
  landing: Omit<transition.Landing, "inViewTransition">,
  viewTransition: boolean | undefined,
): void {
  const document = env.document as TransitionDocument;
  if (!viewTransition || typeof document.startViewTransition !== "function") {
    store.apply(transition.settle, { ...landing, inViewTransition: false });
    return;
  }
  const running = store.state.viewTransition;
  const started = document.startViewTransition(() => flushSync(() => store.apply(transition.settle, { ...landing, inViewTransition: true })));
  const finish = () => store.apply(transition.viewTransitionEnd, running);
  started.finished.then(finish, finish);
}
