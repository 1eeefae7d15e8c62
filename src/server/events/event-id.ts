/**
 * An event's id: `<milliseconds>-<sequence>`, as Redis Streams write them, so ids made by Redis
 * and by a process without it compare the same way and every replica orders them alike.
 */
const EVENT_ID = /^(\d{1,16})-(\d{1,16})$/;

export interface EventIdParts {
  ms: number;
  seq: number;
}

/** The id's two numbers; undefined for anything that is no event id (a client's Last-Event-ID is untrusted). */
export function parseEventId(text: string | undefined): EventIdParts | undefined {
  const match = text ? EVENT_ID.exec(text.trim()) : null;
  if (!match) return undefined;
  const ms = Number(match[1]);
  const seq = Number(match[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? { ms, seq } : undefined;
}

/** Negative when `a` came before `b`, 0 when equal, positive after. */
export function compareEventIds(a: string, b: string): number {
  const left = parseEventId(a);
  const right = parseEventId(b);
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  return left.ms - right.ms || left.seq - right.seq;
}

/** The id a process gives an event it publishes without Redis: after `last`, in this clock's millisecond when that is later. */
export function nextEventId(last: string | undefined, now: number = Date.now()): string {
  const previous = parseEventId(last);
  if (!previous || now > previous.ms) return `${now}-0`;
  return `${previous.ms}-${previous.seq + 1}`;
}
