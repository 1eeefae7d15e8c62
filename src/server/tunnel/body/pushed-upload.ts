import { finished, Readable } from "node:stream";

export interface PushedUploadHooks {
  /** Counts a chunk against the size cap; throws once the body is too large. */
  count(chunk: Buffer): void;
  /** The client went away: records it and gives the error to end the upload with. */
  aborted(): Error;
  /** Hears of a failure before the upstream side is destroyed. */
  onError(): void;
}

/**
 * The upstream body as a stream fed by the request's 'data' events, as undici's own streaming of
 * a request would be: each chunk reaches the upstream socket in the tick it was read, and nothing
 * here refers to it afterwards. Pulled through an async iterator instead, chunks stayed alive
 * across young-generation GCs, so their 64 KiB buffers waited for a full GC. Backpressure both
 * ways: the request pauses while undici has paused this stream (upstream socket full). A failure
 * destroys this stream, which aborts the upstream request, and leaves the request intact and
 * paused for the answer. The request must not be read through its iterator at the same time.
 */
export function pushedUpload(request: Readable, head: Buffer[], hooks: PushedUploadHooks): Readable {
  let attached = true;
  const body = new Readable({
    // Asked for more; not while undici has this stream paused (see below).
    read: () => {
      if (attached && !body.isPaused()) request.resume();
    },
    destroy: (error, callback) => {
      detach();
      callback(error);
    },
  });
  // undici pauses this stream while the upstream socket is full: the request pauses with it at
  // once, as it would if undici read it directly, or one more chunk per upload waits in memory.
  body.on("pause", () => request.pause());
  body.on("resume", () => {
    if (attached) request.resume();
  });
  // Already counted while the header was peeked; emptied so that only the stream refers to them.
  for (const chunk of head.splice(0)) body.push(chunk);
  const fail = (error: Error) => {
    detach();
    hooks.onError();
    body.destroy(error);
  };
  const onData = (chunk: Buffer) => {
    try {
      hooks.count(chunk);
    } catch (error) {
      return fail(error as Error);
    }
    if (!body.push(chunk)) request.pause();
  };
  const onEnd = () => {
    detach();
    body.push(null);
  };
  // Errors only: its callback without one may wait for 'close', after 'end'.
  const stopWatching = finished(request, { writable: false }, (error) => {
    if (error) fail(hooks.aborted());
  });
  // Paused, so that no chunk goes out as 'data' with nobody listening (whole() may read on).
  const detach = () => {
    attached = false;
    request.off("data", onData).off("end", onEnd);
    request.pause();
    stopWatching();
  };
  request.on("data", onData);
  if (request.readableEnded) onEnd();
  else request.once("end", onEnd);
  return body;
}
