import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Context } from "koa";
import { sendJson } from "../http/json-body";
import { endWithoutBody, streamResponse } from "../http/stream-response";

/** Statuses that never carry a body, hence no Content-Length either. */
const bodiless = (status: number) => status < 200 || status === 204 || status === 304;

/**
 * A resource route's answer: a web Response as it is (status, headers, streamed body), anything
 * else as JSON. HEAD gets the same status and headers as GET, without the body.
 */
export function answerResource(ctx: Context, value: unknown, status: number | undefined): void {
  if (!(value instanceof Response)) {
    ctx.status = status ?? 200;
    sendJson(ctx, value ?? null);
    return;
  }
  ctx.status = value.status;
  for (const [name, headerValue] of value.headers) if (name !== "set-cookie") ctx.set(name, headerValue);
  for (const cookie of value.headers.getSetCookie()) ctx.append("Set-Cookie", cookie);
  if (!value.body || ctx.method === "HEAD") {
    void value.body?.cancel();
    // An empty body's length is known: both methods say 0, as Node would for GET alone.
    if (!value.body && !bodiless(value.status) && !value.headers.has("content-length")) ctx.length = 0;
    endWithoutBody(ctx);
    return;
  }
  streamResponse(ctx, Readable.fromWeb(value.body as WebReadableStream<Uint8Array>));
}
