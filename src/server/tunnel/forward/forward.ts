import type { Readable } from "node:stream";
import type { Context } from "koa";
import type { Dispatcher } from "undici";
import type { ClientBody } from "../body/body-limit";
import type { Rejection } from "./reject";
import { relayAnswer } from "./relay-answer";
import { INGEST_DOWN_STATUSES, type Spool } from "../spool";
import type { ForwardConfig } from "./forward-config";
import { type Pending, readForSpool, spoolAndAnswer } from "./spool-answer";
import type { Upstream } from "../check/upstream-url";
import { canonicalIp } from "../../limits/client-key";

export type { ForwardConfig } from "./forward-config";

// Everything else the visitor sent (cookies, authorization, forwarding headers) stays here.
const REQUEST_HEADERS = ["content-type", "content-encoding", "content-length"] as const;
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "ETIMEDOUT"]);

export function upstreamHeaders(ctx: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = ctx.req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  // Sentry wants a plain IP: one spelling, and nothing that is no IP (from a trusted X-Forwarded-For).
  const ip = canonicalIp(ctx.ip);
  if (ip) headers["x-sentry-forwarded-for"] = ip;
  return headers;
}

function failureOf(config: ForwardConfig, body: ClientBody, error: unknown): Rejection {
  if (body.failure === "too_large") {
    return [413, "too_large", `envelope larger than ${config.maxBytes} bytes`];
  }
  if (body.failure === "client_aborted") return [400, "client_aborted", "upload aborted"];
  const code = (error as { code?: unknown } | null)?.code;
  const logFields = { code: typeof code === "string" ? code : error instanceof Error ? error.name : undefined };
  if (typeof code === "string" && TIMEOUT_CODES.has(code)) {
    return [504, "upstream_timeout", "Sentry ingest timed out", logFields];
  }
  return [502, "upstream_unreachable", "Sentry ingest unreachable", logFields];
}

/**
 * The upstream request body. An envelope that arrived whole while its header was read (most
 * browser envelopes) goes as one buffer; anything larger streams, peeked chunks first, copied
 * for the spool while it fits (see BodyCopy).
 */
async function upstreamBody(config: ForwardConfig, body: ClientBody, head: Buffer[], onUploadError: () => void) {
  if (body.receivedAll) {
    await body.release();
    return head.length === 1 ? (head[0] as Buffer) : Buffer.concat(head);
  }
  if (config.spool && config.spoolMemory) body.copy(head, config.spool.maxEnvelopeBytes, config.spoolMemory);
  return body.upload(head, onUploadError);
}

/** Sends the envelope to the ingest and its answer back. */
export async function forward(
  ctx: Context,
  config: ForwardConfig,
  upstream: Upstream,
  body: ClientBody,
  head: Buffer[],
): Promise<void> {
  try {
    await forwardOnce(ctx, config, upstream, body, head);
  } finally {
    // Whatever happened, the copy's share of the memory budget goes back.
    body.releaseCopy();
  }
}

async function forwardOnce(
  ctx: Context,
  config: ForwardConfig,
  upstream: Upstream,
  body: ClientBody,
  head: Buffer[],
): Promise<void> {
  const { spool } = config;
  const headers = upstreamHeaders(ctx);
  // Only a timestamp on the normal path; the rest is made if the envelope has to be spooled.
  const receivedAt = spool ? Date.now() : 0;
  const pending = () => spoolPending(upstream, headers, receivedAt);
  const circuit = spool?.circuitFor(upstream.origin);
  const pass = circuit?.tryUpstream();
  if (spool && !pass) {
    // Known to be down: straight to the spool rather than waiting for another timeout.
    const envelope = await readForSpool(config, spool, body, head);
    if (body.failure) return config.reject(ctx, ...failureOf(config, body, undefined));
    return spoolAndAnswer(ctx, config, spool, pending(), envelope ?? body.copyRefusal, [503, "upstream_unreachable", "circuit open"]);
  }
  let response: Dispatcher.ResponseData | undefined;
  const requestBody = await upstreamBody(config, body, head, () => {
    // Before the answer, the pending request rejects and is answered below; errors that are not
    // the client's surface on the response body, which Koa handles.
    if (!response || !body.failure) return;
    // The upload failed after the ingest answered early: count it, and cut the relayed answer.
    const reason = body.failure;
    config.observer?.rejected(reason);
    config.logger?.warn({ reason, status: response.statusCode }, "sentry tunnel: upload failed after the ingest answered");
    response.body.destroy();
  });

  const started = performance.now();
  try {
    response = await config.dispatcher.request({
      origin: upstream.origin,
      path: upstream.path,
      method: "POST",
      headers,
      // Documented to take an AsyncIterable (Dispatcher.md), which its types leave out.
      body: requestBody as Buffer | Readable,
      headersTimeout: config.headersTimeoutMs,
      bodyTimeout: config.bodyTimeoutMs,
    });
  } catch (error) {
    const failure = failureOf(config, body, error);
    if (!spool) return config.reject(ctx, ...failure);
    if (body.failure) {
      circuit?.abandoned(pass);
      return config.reject(ctx, ...failure);
    }
    circuit?.failed();
    return spoolWhole(ctx, config, spool, pending(), body, requestBody, failure);
  }
  config.observer?.upstreamResponse(response.statusCode, (performance.now() - started) / 1000);
  config.observer?.forwarded(body.bytes);
  if (spool) {
    if (INGEST_DOWN_STATUSES.has(response.statusCode)) {
      circuit?.failed();
      response.body.dump().catch(() => {});
      const status = response.statusCode;
      return spoolWhole(ctx, config, spool, pending(), body, requestBody, [status, "upstream_unreachable", "", { status }]);
    }
    body.releaseCopy();
    circuit?.succeeded();
    spool.rateLimits.update(upstream, response);
  }

  await relayAnswer(ctx, response);
}

/** After the ingest failed: the envelope as sent, read to its end if need be, to the spool. */
async function spoolWhole(
  ctx: Context,
  config: ForwardConfig,
  spool: Spool,
  pending: Pending,
  body: ClientBody,
  sent: Buffer | Readable | AsyncGenerator<Buffer>,
  failure: Rejection,
): Promise<void> {
  const envelope = Buffer.isBuffer(sent) ? sent : await body.whole();
  // The client left while the rest was read: nothing to acknowledge.
  if (!envelope && body.failure) return config.reject(ctx, ...failureOf(config, body, undefined));
  return spoolAndAnswer(ctx, config, spool, pending, envelope ?? body.copyRefusal, failure);
}

function spoolPending(upstream: Upstream, headers: Record<string, string>, receivedAt: number): Pending {
  const { "content-length": _length, ...kept } = headers;
  return { upstream, headers: kept, receivedAt };
}
