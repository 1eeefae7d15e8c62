/**
 * Navigation start and end, for error reporting and tracing, which load as chunks of their own
 * and must not be imported by the router. `pattern` is the route pattern or `not_found`: at the
 * start as the browser matched it, at the end as the server answered (a loader's notFound()).
 */
export interface NavigationEvent {
  pattern: string;
}

export interface NavigationListener {
  start?(event: NavigationEvent): void;
  end?(event: NavigationEvent): void;
}

const listeners = new Set<NavigationListener>();

export function onNavigation(listener: NavigationListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitNavigation(phase: "start" | "end", event: NavigationEvent): void {
  for (const listener of listeners) listener[phase]?.(event);
}
