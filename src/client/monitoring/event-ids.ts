/**
 * The Sentry event id each caught error was reported as, for the error page's feedback form.
 * Reporting happens after the error boundary has rendered its fallback (and the SDK may still
 * be loading), so the boundary subscribes and shows the id once it is known.
 */
const known = new WeakMap<object, string>();
const waiting = new WeakMap<object, Set<(eventId: string) => void>>();

const key = (error: unknown): object | undefined => (typeof error === "object" && error !== null ? error : undefined);

/** The error was reported as `eventId`: its page's listeners are told. */
export function recordEventId(error: unknown, eventId: string): void {
  const target = key(error);
  if (!target) return;
  known.set(target, eventId);
  for (const listener of waiting.get(target) ?? []) listener(eventId);
  waiting.delete(target);
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
