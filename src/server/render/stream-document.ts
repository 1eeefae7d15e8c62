import { PassThrough } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";

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

export interface StartedStream {
  body: PassThrough;
  /** Stops rendering because nobody wants the rest (visitor gone, HEAD): not an error. */
  cancel: () => void;
}

/**
 * Starts a streaming render and resolves once there is something to send: the shell
 * (or everything, for crawlers). Rejects with the error when the shell itself fails, so the
 * caller can still answer 500. The timeout aborts a render that never finishes, and is
 * cleared as soon as the stream ends: a pending timer would keep the whole tree in memory.
 */
export function streamDocument(element: ReactNode, options: StreamOptions): Promise<StartedStream> {
  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    let settled = false;
    let cancelled = false;
    const timer = setTimeout(
      () => abort(new Error(`render timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const stopTimer = () => clearTimeout(timer);
    body.once("finish", stopTimer);
    body.once("close", stopTimer);

    const start = () => {
      if (settled) return;
      settled = true;
      pipe(body);
      resolve({
        body,
        cancel: () => {
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
        if (!cancelled) options.onError(error);
      },
    });
  });
}
