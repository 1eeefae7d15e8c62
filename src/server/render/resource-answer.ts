import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Context } from "koa";
import { sendJson } from "../http/json-body";
import { streamResponse } from "../http/stream-response";

/** A resource route's answer: a web Response as it is (status, headers, streamed body), anything else as JSON. */
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
    ctx.body = null;
    // Koa drops a null body's Content-Type and length; a HEAD keeps what a GET would have said.
    return;
  }
  streamResponse(ctx, Readable.fromWeb(value.body as WebReadableStream<Uint8Array>));
}
