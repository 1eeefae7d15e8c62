import type { RequestContext } from "#outpost";
import { eventStream } from "#outpost/server";

/** The event stream of channel `diagnostics`: each event's data is `{"message": "..."}`. */
export function load(context: RequestContext) {
  return eventStream(context, "diagnostics");
}
