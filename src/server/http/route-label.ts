/** Where the pipeline and the tunnel record the pattern they matched; the request log reads it. */
export function setRouteLabel(state: Record<string, unknown>, route: string): void {
  state.routeLabel = route;
}

/** The label recorded for this request, if any. */
export function routeLabelOf(state: Record<string, unknown>): string | undefined {
  return typeof state.routeLabel === "string" ? state.routeLabel : undefined;
}
