import { decode } from "turbo-stream";
import { DEFERRED_GLOBAL, decodeDeferred, forEachDeferred } from "../../../shared/deferred/deferred-data";
import type { RouterEnvironment } from "./environment";

/**
 * Decodes loader data whose deferred values stream after it (turbo-stream, as the server encoded
 * it). Loaded only when a page or a data request has such values, so other pages never fetch it.
 */

declare global {
  interface Window {
    [DEFERRED_GLOBAL]?: string[] | { push: (line: string) => void };
  }
}

const bytes = new TextEncoder();

/** The decoded value; its promises settle as their lines arrive, and stay pending if they never do. */
async function decodeLines<T>(stream: ReadableStream<Uint8Array>): Promise<T> {
  const { value } = await decode(stream, { plugins: [decodeDeferred] });
  // A failed value shows in the page and the server reported it: not an unhandled rejection here.
  const data = (value as { state?: { data?: unknown } }).state?.data ?? value;
  if (typeof data === "object" && data !== null) {
    forEachDeferred(data as Record<string, unknown>, (_record, _key, deferred) => {
      deferred.then(undefined, () => {});
    });
  }
  return value as T;
}

/**
 * The document's loader data: the payload's first line, then the lines the server's inline scripts
 * push as values settle. The document fully parsed, no line can follow.
 */
export function readPageData(first: string, { window, document }: Pick<RouterEnvironment, "window" | "document">): Promise<Record<string, unknown>> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const push = (line: string) => controller.enqueue(bytes.encode(`${line}\n`));
      push(first);
      const early = window[DEFERRED_GLOBAL];
      if (Array.isArray(early)) for (const line of early) push(line);
      window[DEFERRED_GLOBAL] = { push };
      const close = () => controller.close();
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", close);
      else close();
    },
  });
  return decodeLines(stream);
}

/**
 * A data request's streamed answer. A body cut short (a newer navigation aborted it, the network
 * failed) ends the stream rather than failing it: the values it did not carry stay pending, as
 * after the server's time limit, instead of showing as errors.
 */
export function readDataStream(body: ReadableStream<Uint8Array>): Promise<unknown> {
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return decodeLines(stream);
}
