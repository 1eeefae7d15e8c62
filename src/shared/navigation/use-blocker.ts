import { useContext, useEffect, useMemo, useRef } from "react";
import { type BlockerFunction, RouterContext, useRouterState } from "./router-context";
import { type BlockerState, UNBLOCKED, type ViewTransition } from "./router-state";

export type Blocker = BlockerState & {
  /** Lets the held navigation go on. */
  proceed(): void;
  /** Drops the held navigation: the page stays as it is. */
  reset(): void;
};

const nothing = () => {};

/**
 * Holds client navigations (links, navigate(), GET forms, back and forward) while `shouldBlock`
 * is true or returns true for one: the blocker turns "blocked" with the `location` it holds
 * until the page calls proceed() or reset(). One blocker at a time: the one mounted last asks.
 * A document unload (reload, closing the tab, another site) is the browser's: useBeforeUnload.
 */
export function useBlocker(shouldBlock: boolean | BlockerFunction): Blocker {
  const router = useContext(RouterContext);
  const latest = useRef(shouldBlock);
  useEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(() => {
    if (!router) return;
    const remove = router.block((args) => {
      const current = latest.current;
      return typeof current === "function" ? current(args) : current;
    });
    return () => {
      remove();
      // A navigation held by a blocker that is gone would wait for ever.
      router.reset();
    };
  }, [router]);
  const state = useRouterState((routerState) => routerState.blocker, UNBLOCKED);
  return useMemo(() => ({ ...state, proceed: router?.proceed ?? nothing, reset: router?.reset ?? nothing }), [state, router]);
}

/**
 * While `when` is true, leaving the document (reload, closing the tab, a URL typed, a link to
 * another site) asks the browser's own "leave this page?" prompt; browsers show their own text.
 */
export function useBeforeUnload(when: boolean): void {
  useEffect(() => {
    if (!when) return;
    const prompt = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", prompt);
    return () => window.removeEventListener("beforeunload", prompt);
  }, [when]);
}

/**
 * Whether a navigation asked with `viewTransition` is under way (from its start until the
 * transition finished); with `to`, only one from or to that path, so a list item can name
 * itself (`view-transition-name`) for the page it opens.
 */
export function useViewTransitionState(to?: string): boolean {
  const transition = useRouterState<ViewTransition | null>((state) => state.viewTransition, null);
  if (!transition) return false;
  if (to === undefined) return true;
  const path = to.split(/[?#]/)[0];
  return transition.to === path || transition.from === path;
}
