import type { Context } from "koa";
import type { CopyRefusal } from "../body/body-copy";
import type { ClientBody } from "../body/body-limit";
import { sendJson } from "../../http/json-body";
import { parseContentEncoding } from "../check/envelope-header";
import type { Spool } from "../spool";
import { envelopeCategories } from "./categories";
import { countedItems } from "../reports/counted-items";
import type { ForwardConfig } from "./forward-config";
import type { Rejection } from "./reject";
import type { Upstream } from "../check/upstream-url";

// How long the browser should wait when its envelope could be neither delivered nor spooled.
const RETRY_AFTER_SECONDS = "60";

/** What an envelope about to be spooled is and where it goes. */
export interface Pending {
  upstream: Upstream;
  /** The headers it goes upstream with (without Content-Length, recomputed when it is sent). */
  headers: Record<string, string>;
  receivedAt: number;
}

/**
 * The ingest could not take the envelope (`failure` says why): store it and answer 200 `{}` once
 * it is on disk, as the ingest would have. Without the whole envelope (`envelope` says why not:
 * larger than the spool takes, or not kept for lack of memory) or when the write fails, 503 with
 * Retry-After, and nothing is stored.
 */
export async function spoolAndAnswer(
  ctx: Context,
  config: ForwardConfig,
  spool: Spool,
  pending: Pending,
  envelope: Buffer | CopyRefusal | undefined,
  failure: Rejection,
): Promise<void> {
  const cause = { cause: failure[1], ...failure[3] };
  const encoding = parseContentEncoding(pending.headers["content-encoding"]) ?? "identity";
  // Read only when the reports are on: what a cap, or the refusal below, tells the DSN's ingest.
  const counted = config.reports && Buffer.isBuffer(envelope) ? await countedItems(envelope, encoding) : undefined;
  const unstored = () => {
    if (counted) config.reports?.record({ dsn: counted.dsn, upstream: pending.upstream }, "network_error", counted.counts);
  };
  if (!Buffer.isBuffer(envelope) || envelope.length > spool.maxEnvelopeBytes) {
    ctx.set("Retry-After", RETRY_AFTER_SECONDS);
    const reason = typeof envelope === "string" ? envelope : "spool_too_large";
    unstored();
    config.reject(ctx, 503, reason, "Sentry ingest unavailable, retry later", cause);
    return;
  }
  try {
    const items = counted && { dsn: counted.dsn, counts: Object.fromEntries(counted.counts) };
    await spool.add({ ...pending, body: envelope, categories: await envelopeCategories(envelope, encoding), items });
  } catch (error) {
    unstored();
    ctx.set("Retry-After", RETRY_AFTER_SECONDS);
    const code = (error as { code?: unknown }).code ?? (error as Error).message;
    config.reject(ctx, 503, "spool_failed", "Sentry ingest unavailable, retry later", { ...cause, spoolError: code });
    return;
  }
  ctx.status = 200;
  sendJson(ctx, {});
}

/**
 * With the ingest known to be down: the envelope read here, whole, if the spool takes its size
 * and the memory budget has room for it; undefined (the body left unread) otherwise.
 */
export async function readForSpool(config: ForwardConfig, spool: Spool, body: ClientBody, head: readonly Buffer[]): Promise<Buffer | undefined> {
  if (!config.spoolMemory || !body.copy(head, spool.maxEnvelopeBytes, config.spoolMemory).kept) {
    await body.release();
    return undefined;
  }
  return body.whole();
}
