/** What one event is: its id (comparable across replicas) and its data as JSON text. */
export interface StoredEvent {
  id: string;
  data: string;
}

const encoder = new TextEncoder();

/** One `message` event as sent: encoded once per event, whatever the number of streams it goes to. */
export function eventFrame({ id, data }: StoredEvent): Uint8Array {
  // JSON text has no raw line break, so one data: line carries it whole.
  return encoder.encode(`id: ${id}\ndata: ${data}\n\n`);
}

/** A named event that is no message of the channel (no id, so the client's Last-Event-ID stays). */
export function noticeFrame(type: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** How long the client waits before reconnecting (EventSource and the hook read it). */
export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${Math.round(ms)}\n\n`);
}

/** A comment: keeps proxies and load balancers from closing an idle stream; clients ignore it. */
export const HEARTBEAT_FRAME = encoder.encode(":\n\n");
