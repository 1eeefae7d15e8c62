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
import type { ForwardIp } from "../contract/types";
import { forwardedIp } from "./forwarded-ip";
import { type ScrubbedUpload, scrubbedForSpool, scrubbedUpload } from "../scrub";

export type { ForwardConfig } from "./forward-config";

// Everything else the visitor sent (cookies, authorization, forwarding headers) stays here.
const REQUEST_HEADERS = ["content-type", "content-encoding", "content-length"] as const;
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "ETIMEDOUT"]);

export function upstreamHeaders(ctx: Context, forwardIp: ForwardIp = "full"): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = ctx.req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const ip = forwardedIp(ctx.ip, forwardIp);
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
  const headers = upstreamHeaders(ctx, config.forwardIp);
  const scrubbed = config.scrub === "defaults" ? scrubbedUpload(ctx, config, upstream, body, head, headers) : undefined;
  try {
    await forwardOnce(ctx, config, upstream, body, head, headers, scrubbed);
  } finally {
    // Whatever happened, the copy's share of the memory budget goes back.
    body.releaseCopy();
    // Not `await scrubbed?.close()`: with scrubbing off, not even a microtask more per envelope.
    if (scrubbed) await scrubbed.close();
  }
}

async function forwardOnce(
  ctx: Context,
  config: ForwardConfig,
  upstream: Upstream,
  body: ClientBody,
  head: Buffer[],
  headers: Record<string, string>,
  scrubbed: ScrubbedUpload | undefined,
): Promise<void> {
  const { spool } = config;
  // Only a timestamp on the normal path; the rest is made if the envelope has to be spooled.
  const receivedAt = spool ? Date.now() : 0;
  const pending = () => spoolPending(upstream, headers, receivedAt);
  let response: Dispatcher.ResponseData | undefined;
  const onUploadError = () => {
    // Before the answer, the pending request rejects and is answered below; errors that are not
    // the client's surface on the response body, which Koa handles.
    if (!response || !body.failure) return;
    // The upload failed after the ingest answered early: count it, and cut the relayed answer.
    const reason = body.failure;
    config.observer?.rejected(reason);
    config.logger?.warn({ reason, status: response.statusCode }, "sentry tunnel: upload failed after the ingest answered");
    response.body.destroy();
  };
  // Scrubbing: the envelope as it goes upstream, or nothing when it cannot be read.
  const prepared = scrubbed && (await scrubbed.prepare(onUploadError));
  if (scrubbed && !prepared) return config.reject(ctx, ...(scrubbed.failure ?? failureOf(config, body, undefined)));
  const circuit = spool?.circuitFor(upstream.origin);
  const pass = circuit?.tryUpstream();
  if (spool && !pass) {
    // Known to be down: straight to the spool rather than waiting for another timeout.
    const envelope = prepared ? await scrubbedForSpool(scrubbed as ScrubbedUpload, prepared, spool, config.spoolMemory) : await readForSpool(config, spool, body, head);
    if (body.failure || scrubbed?.failure) return config.reject(ctx, ...(scrubbed?.failure ?? failureOf(config, body, undefined)));
    const refusal = scrubbed ? scrubbed.copyRefusal : body.copyRefusal;
    return spoolAndAnswer(ctx, config, spool, pending(), envelope ?? refusal, [503, "upstream_unreachable", "circuit open"]);
  }
  if (prepared && !Buffer.isBuffer(prepared) && spool && config.spoolMemory) scrubbed?.copy(spool.maxEnvelopeBytes, config.spoolMemory);
  const requestBody = prepared ?? (await upstreamBody(config, body, head, onUploadError));

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
    const failure = scrubbed?.failure ?? failureOf(config, body, error);
    if (!spool) return config.reject(ctx, ...failure);
    if (body.failure || scrubbed?.failure) {
      circuit?.abandoned(pass);
      return config.reject(ctx, ...failure);
    }
    circuit?.failed();
    return spoolWhole(ctx, config, spool, pending(), body, requestBody, failure, scrubbed);
  }
  config.observer?.upstreamResponse(response.statusCode, (performance.now() - started) / 1000);
  config.observer?.forwarded(body.bytes);
  if (spool) {
    if (INGEST_DOWN_STATUSES.has(response.statusCode)) {
      circuit?.failed();
      response.body.dump().catch(() => {});
      const status = response.statusCode;
      return spoolWhole(ctx, config, spool, pending(), body, requestBody, [status, "upstream_unreachable", "", { status }], scrubbed);
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
  scrubbed?: ScrubbedUpload,
): Promise<void> {
  const envelope = Buffer.isBuffer(sent) ? sent : await (scrubbed ? scrubbed.whole() : body.whole());
  // The client left while the rest was read (or it could not be scrubbed): nothing to acknowledge.
  if (!envelope && (body.failure || scrubbed?.failure)) return config.reject(ctx, ...(scrubbed?.failure ?? failureOf(config, body, undefined)));
  return spoolAndAnswer(ctx, config, spool, pending, envelope ?? (scrubbed ? scrubbed.copyRefusal : body.copyRefusal), failure);
}

function spoolPending(upstream: Upstream, headers: Record<string, string>, receivedAt: number): Pending {
  const { "content-length": _length, ...kept } = headers;
  return { upstream, headers: kept, receivedAt };
}
