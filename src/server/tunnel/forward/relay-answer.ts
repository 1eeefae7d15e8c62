import type { Context } from "koa";
import type { Dispatcher } from "undici";
import { streamResponse } from "../../http/stream-response";

// The SDK backs off on these; nothing else (HSTS, cookies, server internals) is relayed.
const RESPONSE_HEADERS = ["content-type", "retry-after", "x-sentry-rate-limits"] as const;
const EMPTY_BODY_STATUSES = new Set([204, 205, 304]);
// Answers up to this size are read whole and sent in one write rather than streamed.
const SMALL_ANSWER_BYTES = 16 * 1024;

/**
 * The ingest's answer to the visitor: its status, the headers the SDK acts on, and its body.
 * A short answer of known length (the ingest's usual `{"id":…}`) is read and sent in one
 * write; anything else streams. An ingest failing mid-answer ends the client response; a
 * client going away destroys the stream and so the upstream request.
 */
export async function relayAnswer(ctx: Context, response: Dispatcher.ResponseData): Promise<void> {
  ctx.status = response.statusCode;
  for (const name of RESPONSE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) ctx.set(name, value);
  }
  // The ingest answered before the upload finished; this connection cannot be reused.
  if (!ctx.req.complete) ctx.set("Connection", "close");
  if (EMPTY_BODY_STATUSES.has(response.statusCode)) {
    response.body.dump().catch(() => {});
    ctx.body = null;
    return;
  }
  const length = Number(response.headers["content-length"]);
  if (length >= 0 && length <= SMALL_ANSWER_BYTES) {
    try {
      ctx.body = Buffer.from(await response.body.arrayBuffer());
      return;
    } catch {
      // Fewer bytes than announced, or the ingest cut the answer: the status is already
      // chosen, so the client's response is cut too.
      ctx.res.destroy();
      ctx.respond = false;
      return;
    }
  }
  streamResponse(ctx, response.body);
}
