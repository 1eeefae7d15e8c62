import type { Writable } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { DEFERRED_DIGEST, DeferredError } from "../../shared/deferred/deferred-data";

export interface StreamOptions {
  nonce: string;
  bootstrapScriptContent: string;
  bootstrapModules: string[];
  /** Crawlers get the complete document in one go; browsers get the shell as soon as it is ready. */
  waitForAll: boolean;
  timeoutMs: number;
  /** Every render error, before or after the shell, exactly once. */
  onError: (error: unknown) => void;
}

export interface StartedRender {
  /** Streams the document into the response and ends it. */
  pipe: (destination: Writable) => void;
  /**
   * The response has closed: the render timeout stops. Not finished (visitor gone, HEAD), the
   * render stops too, since nobody wants the rest: not an error.
   */
  close: (finished: boolean) => void;
}

/**
 * Starts a streaming render and resolves once there is something to send: the shell
 * (or everything, for crawlers). Rejects with the error when the shell itself fails, so the
 * caller can still answer 500. The timeout aborts a render that never finishes, and is
 * cleared by `close` as soon as the response ends: a pending timer would keep the whole tree
 * in memory.
 * React writes straight into the response (no intermediate stream), so the last chunk and
 * the end of the response leave in one socket write.
 */
export function streamDocument(element: ReactNode, options: StreamOptions): Promise<StartedRender> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let cancelled = false;
    const timer = setTimeout(
      () => abort(new Error(`render timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const stopTimer = () => clearTimeout(timer);

    const start = () => {
      if (settled) return;
      settled = true;
      // Writing is left to the next turn of the event loop: after React's own start-up
      // callback, and together with other requests' writes (docs/decisions/0013-render-writes-next-turn.md).
      setImmediate(resolve, {
        pipe,
        close: (finished) => {
          stopTimer();
          if (finished) return;
          cancelled = true;
          abort();
        },
      });
    };

    const { pipe, abort } = renderToPipeableStream(element, {
      nonce: options.nonce,
      bootstrapScriptContent: options.bootstrapScriptContent,
      bootstrapModules: options.bootstrapModules,
      onShellReady: () => {
        if (!options.waitForAll) start();
      },
      onAllReady: () => {
        if (options.waitForAll) start();
      },
      onShellError: (error) => {
        stopTimer();
        if (settled) return;
        settled = true;
        reject(error);
      },
      onError: (error) => {
        if (cancelled) return undefined;
        options.onError(error);
        // The browser is told only that a boundary failed on a deferred value (already reported), so it does not report it again.
        return error instanceof DeferredError ? DEFERRED_DIGEST : undefined;
      },
    });
  });
}
