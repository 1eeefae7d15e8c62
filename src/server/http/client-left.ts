import type { Context } from "koa";

/**
 * The visitor's connection closed before the exchange was over, so an error it caused is no
 * fault of ours: "client left", logged at info and counted, never reported. Two moments:
 * - mid-request, before the body was all in (a tab closed during an upload): Node's parser
 *   reports the cut body on the socket, and a reader of the body gets "aborted";
 * - mid-response, once the answer had begun: a body Koa pipes itself fails with "Premature
 *   close" (the platform's own streamed answers go through stream-response and never fail so).
 * undici may have detached the request from its socket (it does so for a body it relayed), so
 * the response's socket is asked too.
 */
export function clientLeft(ctx: Context): "mid-request" | "mid-response" | null {
  const { req, res } = ctx;
  const socket = req.socket ?? res.socket;
  if (socket?.destroyed !== true) return null;
  if (!req.complete) return "mid-request";
  return res.headersSent && !res.writableFinished ? "mid-response" : null;
}
