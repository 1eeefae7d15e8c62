/** A channel's name: what `publish` and `eventStream` are given, also part of a Redis key. */
const CHANNEL = /^[A-Za-z0-9_.:/-]{1,100}$/;

/** The largest published value, as JSON: an event goes to every open stream of every replica. */
export const MAX_EVENT_BYTES = 64 * 1024;

/** Throws a TypeError naming what is wrong, so a mistake fails the route's code, not a stream. */
export function checkChannel(channel: string): void {
  if (typeof channel !== "string" || !CHANNEL.test(channel)) {
    throw new TypeError(`event channel ${JSON.stringify(channel)}: use 1-100 letters, digits, _ . : / or -`);
  }
}

/** The published value as the JSON text every stream sends; throws a TypeError for a value JSON cannot carry or one too large. */
export function eventData(channel: string, data: unknown): string {
  const text = JSON.stringify(data);
  if (text === undefined) throw new TypeError(`event on "${channel}": the data must be a JSON value, got ${typeof data}`);
  if (Buffer.byteLength(text) > MAX_EVENT_BYTES) {
    throw new TypeError(`event on "${channel}": its data is over ${MAX_EVENT_BYTES / 1024} KiB as JSON; publish an id and let pages fetch the rest`);
  }
  return text;
}
