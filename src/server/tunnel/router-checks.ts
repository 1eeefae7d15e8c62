import type { Context } from "koa";
import type { ClientBody } from "./body/body-limit";
import { envelopeDsn, type PeekedHeader, parseContentEncoding } from "./check/envelope-header";
import { quotaRateLimitHeader, takeQuota } from "./check/project-quota";
import type { Upstream } from "./check/upstream-url";
import { filterEnvelope } from "./filters/filter-envelope";
import { sendJson } from "../http/json-body";
import { countedItems } from "./reports/counted-items";
import { readRest } from "./reports/refused-envelope";
import type { RouterConfig } from "./router-config";

/**
 * After the DSN is known: the inbound filters (which read the whole envelope, so only when
 * some are set), then the project quota. Returns the chunks to forward, or undefined once
 * the envelope was answered here.
 */
export async function checkEnvelope(
  ctx: Context,
  config: RouterConfig,
  upstream: Upstream,
  body: ClientBody,
  peeked: PeekedHeader,
): Promise<Buffer[] | undefined> {
  if (config.filters.length === 0 && !config.quota) return peeked.consumed;
  const encoding = parseContentEncoding(ctx.get("Content-Encoding") || undefined) ?? "identity";
  const target = { dsn: envelopeDsn(peeked.line), upstream };
  let whole: Buffer | undefined;
  if (config.filters.length > 0) {
    whole = await readRest(body, peeked.consumed);
    if (!whole) return refuseBody(ctx, config, body);
    const filtered = await filterEnvelope(config.filters, whole, encoding, config.maxBytes);
    if (filtered) {
      config.reports?.record(target, "event_processor", filtered.counts);
      config.logger?.info({ filter: filtered.filter }, "sentry tunnel: envelope filtered");
      // As Relay answers a filtered event: accepted, so the SDK neither retries nor backs off.
      ctx.status = 200;
      sendJson(ctx, filtered.eventId ? { id: filtered.eventId } : {});
      return undefined;
    }
  }
  if (config.quota) {
    const decision = await takeQuota(config.quota, upstream);
    if (!decision.ok) {
      ctx.set("Retry-After", String(decision.retryAfterSeconds));
      ctx.set("X-Sentry-Rate-Limits", quotaRateLimitHeader(decision.retryAfterSeconds));
      if (config.reports) {
        whole ??= await readRest(body, peeked.consumed);
        const counted = whole && (await countedItems(whole, encoding));
        if (counted) config.reports.record(target, "ratelimit_backoff", counted.counts);
      }
      config.reject(ctx, 429, "quota", "project quota exceeded, retry later");
      return undefined;
    }
  }
  return whole ? [whole] : peeked.consumed;
}

function refuseBody(ctx: Context, config: RouterConfig, body: ClientBody): undefined {
  if (body.failure === "too_large") config.reject(ctx, 413, "too_large", `envelope larger than ${config.maxBytes} bytes`);
  else config.reject(ctx, 400, "client_aborted", "upload aborted");
  return undefined;
}
