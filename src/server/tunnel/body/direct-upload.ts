import type { IncomingMessage } from "node:http";
import { finished, type Readable } from "node:stream";

export interface DirectUploadHooks {
  /** The body was read to its end. */
  ended(): void;
  /** The client went away mid-upload: records it. */
  aborted(): void;
  /** Hears of that failure, after aborted(). */
  onError(): void;
}

/**
 * The request itself as the upstream body, the peeked chunks put back in front of it, as the
 * bare relay hands it to undici: nothing sits between the two sockets, so each 64 KiB socket
 * buffer is passed on and dropped at once, where pushedUpload's stream kept more of them alive
 * (docs/decisions/0009-direct-upload-for-large-declared-bodies.md). Only for a body nothing
 * else needs to see: its length declared (Node's
 * parser holds it to that, and it was checked against the cap) and no copy kept for the spool.
 *
 * undici destroys the body stream when the upload ends or fails, detaching an IncomingMessage
 * from its socket first, so the answer still goes out on the connection. A failure is therefore
 * the client's only when its socket is gone; otherwise it is the ingest's, which undici reports.
 */
export function directUpload(request: Readable, head: Buffer[], hooks: DirectUploadHooks): Readable {
  // Emptied so that only the request refers to them.
  for (const chunk of head.splice(0).reverse()) request.unshift(chunk);
  const socket = (request as Partial<IncomingMessage>).socket;
  // Also swallows the error undici destroys the request with.
  finished(request, { writable: false }, (error) => {
    if (!error) return hooks.ended();
    if (socket && !socket.destroyed) return;
    hooks.aborted();
    hooks.onError();
  });
  return request;
}
