import type { Router } from "../../shared/navigation/router-context";

let current: Router | undefined;

/** The entry registers the page's router here, for code outside React (development updates). */
export function setRouter(router: Router): void {
  current = router;
}

/** Re-runs the current page's loaders and re-renders with their data, keeping client state. */
export function revalidate(): Promise<void> {
  return current ? current.revalidate() : Promise.resolve();
}
