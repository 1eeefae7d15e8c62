import type { Context } from "koa";
import { sendJson } from "../http/json-body";
import { applyHeaders } from "../http/response-headers";
import type { RedirectOutcome, ResourceOutcome, RouteOutcome } from "../request/core/outcome";
import { endWithoutBody, streamWebBody } from "../http/stream-response";

/** A resource route's answer, or the redirect that stopped it. */
export function answerResourceRoute(ctx: Context, outcome: RouteOutcome): void {
  if (outcome.type === "redirect") writeRedirect(ctx, outcome);
  else writeResource(ctx, outcome as ResourceOutcome);
}

/** The resource-answer writer: the route's answer, then the headers of a signal that stopped it. */
export function writeResource(ctx: Context, { value, status, headers }: ResourceOutcome): void {
  answerResource(ctx, value, status);
  // After the body: an httpError's own headers (a problem+json Content-Type) win over JSON's.
  applyHeaders(ctx, headers);
}

/** A redirect as a document or resource URL answers it: the status and Location, no body. */
export function writeRedirect(ctx: Context, { status, location, headers }: RedirectOutcome): void {
  applyHeaders(ctx, headers);
  ctx.body = null;
  ctx.status = status;
  // Said outright so that HEAD carries it too (Koa adds it only to a GET's empty body).
  ctx.length = 0;
  ctx.set("Location", location);
}

/** A resource route's answer: a web Response as it is (status, headers, streamed body), anything else as JSON. */
function answerResource(ctx: Context, value: unknown, status: number | undefined): void {
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
  streamWebBody(ctx, value.body);
}
