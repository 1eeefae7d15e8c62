import { createContext, useContext, useSyncExternalStore } from "react";

export interface NavigationState {
  state: "idle" | "loading";
  /** Where the pending navigation goes. */
  location?: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

/** What components may ask of the browser's router. The server renders without one. */
export interface Router {
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /** Fetches a page's data and code ahead of a likely click. */
  prefetch(to: string): void;
  /** Re-runs the current page's loaders and re-renders with their data. */
  revalidate(): Promise<void>;
  subscribe(listener: () => void): () => void;
  navigation(): NavigationState;
}

export const RouterContext = createContext<Router | null>(null);

const IDLE: NavigationState = { state: "idle" };
const noSubscription = () => () => {};

/** Whether a navigation is pending, and to where: idle on the server. */
export function useNavigation(): NavigationState {
  const router = useContext(RouterContext);
  return useSyncExternalStore(
    router ? router.subscribe : noSubscription,
    router ? router.navigation : () => IDLE,
    () => IDLE,
  );
}

/** The router, for `navigate()` from an event handler; null on the server. */
export function useRouter(): Router | null {
  return useContext(RouterContext);
}
