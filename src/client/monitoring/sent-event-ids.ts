import { recordEventId } from "./event-ids";

// What only the SDK's chunk calls, apart from ./event-ids, which the error pages in every page's first chunk read.

// Render errors by the event id they were captured as, until the event is sent, and the ids sent
// before capture returned (processing is often synchronous); both bounded, as dropped ones stay.
const awaitingSend = new Map<string, unknown>();
const sentEarly = new Set<string>();
const KEPT_MAX = 20;

function keepBounded<Key>(collection: { size: number; keys(): IterableIterator<Key>; delete(key: Key): boolean }): void {
  if (collection.size > KEPT_MAX) collection.delete(collection.keys().next().value as Key);
}

/** The SDK is sending this event: it passed dedupe and every filter. */
export function markEventSent(eventId: string): void {
  const error = awaitingSend.get(eventId);
  if (error === undefined) {
    sentEarly.add(eventId);
    keepBounded(sentEarly);
    return;
  }
  awaitingSend.delete(eventId);
  recordEventId(error, eventId);
}

/** An error was just captured as `eventId`; its page shows the id once the event is sent. */
export function recordCapturedEventId(error: unknown, eventId: string | undefined): void {
  if (!eventId) return;
  if (sentEarly.delete(eventId)) recordEventId(error, eventId);
  else {
    awaitingSend.set(eventId, error);
    keepBounded(awaitingSend);
  }
}
