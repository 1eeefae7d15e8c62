import { encode } from "turbo-stream";
import { encodeAsJson, encodeErrors } from "../../../shared/deferred/deferred-data";
import { UnserialisableValueError } from "../../../shared/json/json-text";

/** turbo-stream writes BigInts and cycles, but recurses: only a value nested too deeply defeats it, as a stack overflow. */
const namedEncodingError = (error: unknown) =>
  error instanceof RangeError ? new UnserialisableValueError(`Cannot encode the page's deferred data: a value nested too deeply (${error.message})`, { cause: error }) : error;

/**
 * A value encoded with turbo-stream (docs/decisions/0031-deferred-data-turbo-stream.md): the first
 * line holds everything but the pending promises, each later line one settled promise.
 */
export interface DeferredLines {
  /** The awaited part: the value with each promise a reference to a later line. */
  first: string;
  /** Calls `onLine` with each later line as its promise settles, then `onEnd` once, however it ends (at once if already stopped). */
  follow(onLine: (line: string) => void, onEnd: () => void): void;
  /** Abandons the promises still pending: their lines are never sent. */
  stop(): void;
}

/**
 * Encodes `value`; rejects when its awaited part cannot be encoded. After `timeoutMs` the values
 * still pending are abandoned, whether or not anybody follows the lines. `abort` is aborted on
 * stop(), whatever stopped the lines (deferState's audience, so late failures go unreported).
 */
export async function encodeLines(
  value: unknown,
  onError: (error: unknown) => void,
  timeoutMs: number,
  abort: AbortController = new AbortController(),
): Promise<DeferredLines> {
  const reader = encode(value, { plugins: [encodeErrors], postPlugins: [encodeAsJson], signal: abort.signal }).getReader();
  const text = new TextDecoder();
  // Each chunk turbo-stream enqueues is one whole line ending in "\n".
  const lineOf = (chunk: Uint8Array) => text.decode(chunk).slice(0, -1);
  const head = await reader.read().catch((error: unknown) => {
    throw namedEncodingError(error);
  });
  if (!head.value) throw new Error("turbo-stream encoded nothing");
  let stopped = false;
  let end: (() => void) | undefined;
  const finish = () => {
    clearTimeout(timer);
    const onEnd = end;
    end = undefined;
    onEnd?.();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    // The encoder lets go of the pending promises; the lines it still writes for them are dropped.
    abort.abort();
    finish();
  };
  const timer = setTimeout(stop, timeoutMs);
  return {
    first: lineOf(head.value),
    follow(onLine, onEnd) {
      // Stopped before anybody followed (the time limit passed while the page rendered whole): nothing more will come.
      if (stopped) return onEnd();
      end = onEnd;
      const pump = (): void => {
        reader.read().then(
          ({ done, value: chunk }) => {
            if (stopped) return;
            if (done || !chunk) return finish();
            onLine(lineOf(chunk));
            pump();
          },
          (error: unknown) => {
            // A settled value that cannot be encoded: the ones after it are abandoned with it.
            if (!stopped) onError(namedEncodingError(error));
            finish();
          },
        );
      };
      if (head.done) finish();
      else pump();
    },
    stop,
  };
}
