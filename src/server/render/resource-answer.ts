import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Context } from "koa";
import { sendJson } from "../http/json-body";
import { endWithoutBody, streamResponse } from "../http/stream-response";

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
  if (!value.body) {
    if (!value.headers.has("content-length") && value.status !== 204 && value.status !== 304) ctx.length = 0;
    endWithoutBody(ctx);
    return;
  }
  if (ctx.method === "HEAD") {
    // What a GET would say (its headers as the Response gave them), without the body.
    void value.body.cancel();
    endWithoutBody(ctx);
    return;
  }
  streamResponse(ctx, Readable.fromWeb(value.body as WebReadableStream<Uint8Array>));
}
