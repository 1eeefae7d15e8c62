/**
 * The Sentry event id each caught error was reported as, for the error page's feedback form.
 * Reporting happens after the error boundary has rendered its fallback (and the SDK may still
 * be loading), so the boundary subscribes and shows the id once it is known.
 */
const known = new WeakMap<object, string>();
const waiting = new WeakMap<object, Set<(eventId: string) => void>>();

const key = (error: unknown): object | undefined => (typeof error === "object" && error !== null ? error : undefined);

function recordEventId(error: unknown, eventId: string): void {
  const target = key(error);
  if (!target) return;
  known.set(target, eventId);
  for (const listener of waiting.get(target) ?? []) listener(eventId);
  waiting.delete(target);
}

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

/** Calls `listener` with the error's event id, now or once it is reported; returns an unsubscribe. */
export function whenReported(error: unknown, listener: (eventId: string) => void): () => void {
  const target = key(error);
  if (!target) return () => {};
  const eventId = known.get(target);
  if (eventId) {
    listener(eventId);
    return () => {};
  }
  const listeners = waiting.get(target) ?? new Set();
  listeners.add(listener);
  waiting.set(target, listeners);
  return () => listeners.delete(listener);
}
