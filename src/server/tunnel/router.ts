import Router from "@koa/router";
import type { Context } from "koa";
import type { AllowedDsn } from "./check/allowlist";
import { ClientBody } from "./body/body-limit";
import { envelopeDsn, type PeekedHeader, parseContentEncoding, peekHeaderLine } from "./check/envelope-header";
import { BodyTooLargeError, ClientAbortedError, MalformedRequestError } from "./contract/errors";
import { forward } from "./forward/forward";
import { parseTunnelQuery, type TunnelQuery } from "./check/query";
import { clientKey } from "../limits/client-key";
import { drainRefusedUpload } from "../http/refuse";
import { setRouteLabel } from "../http/route-label";
import { queryMatchesDsn, type Upstream } from "./check/upstream-url";
import { reportRefused } from "./reports/refused-envelope";
import { checkEnvelope } from "./router-checks";
import type { RouterConfig } from "./router-config";

export type { RouterConfig } from "./router-config";


async function peek(ctx: Context, config: RouterConfig, body: ClientBody): Promise<PeekedHeader | undefined> {
  const encoding = parseContentEncoding(ctx.get("Content-Encoding") || undefined);
  if (!encoding) {
    config.reject(ctx, 400, "malformed", "unsupported Content-Encoding");
    return undefined;
  }
  try {
    return await peekHeaderLine(() => body.read(), encoding);
  } catch (error) {
    await body.release();
    if (error instanceof BodyTooLargeError) {
      config.reject(ctx, 413, "too_large", `envelope larger than ${config.maxBytes} bytes`);
    } else if (error instanceof ClientAbortedError) {
      config.reject(ctx, 400, "client_aborted", "upload aborted");
    } else if (error instanceof MalformedRequestError) {
      config.reject(ctx, 400, "malformed", error.message);
    } else {
      throw error;
    }
    return undefined;
  }
}

type Verdict = { ok: true; upstream: Upstream } | { ok: false; status: 400 | 403; detail: string };

/** Checks the envelope's DSN: allowed, and the one the query names. Returns where to send it. */
function verdict(config: RouterConfig, line: Buffer, query: TunnelQuery): Verdict {
  let allowed: AllowedDsn | undefined;
  try {
    allowed = config.allowlist.match(envelopeDsn(line));
  } catch (error) {
    const detail = error instanceof MalformedRequestError ? error.message : "envelope dsn is not a valid DSN";
    return { ok: false, status: 400, detail };
  }
  if (!allowed) return { ok: false, status: 403, detail: "envelope dsn is not allowed" };
  if (!queryMatchesDsn(query, allowed.dsn)) {
    return { ok: false, status: 400, detail: "query does not match the envelope dsn" };
  }
  return { ok: true, upstream: allowed.upstream };
}

async function handle(ctx: Context, config: RouterConfig): Promise<void> {
  // Read by the app's request log: a route pattern, never the raw URL.
  setRouteLabel(ctx.state, config.path);
  if (ctx.method !== "POST") {
    ctx.set("Allow", "POST");
    return config.reject(ctx, 405, "method", "only POST is allowed");
  }
  if (config.limiter) {
    const decision = await config.limiter.take(clientKey(ctx.ip, config.ipv6Prefix));
    if (!decision.ok) {
      ctx.set("Retry-After", String(decision.retryAfterSeconds));
      if (config.reports) await reportRefused(ctx, config.reports, config.allowlist, config.maxBytes, "ratelimit_backoff");
      return config.reject(ctx, 429, "rate_limited", "too many envelopes, retry later");
    }
  }
  const query = parseTunnelQuery(ctx.querystring);
  if (!query.ok) return config.reject(ctx, 400, "malformed", query.detail);
  const declaredHeader = ctx.req.headers["content-length"];
  const declared = declaredHeader === undefined ? undefined : Number(declaredHeader);
  if (declared !== undefined && declared > config.maxBytes) {
    return config.reject(ctx, 413, "too_large", `envelope larger than ${config.maxBytes} bytes`);
  }

  const body = new ClientBody(ctx.req, config.maxBytes, declared);
  const peeked = await peek(ctx, config, body);
  if (!peeked) return;
  const checked = verdict(config, peeked.line, query.query);
  if (!checked.ok) {
    await body.release();
    return config.reject(ctx, checked.status, checked.status === 403 ? "forbidden" : "malformed", checked.detail);
  }
  const head = await checkEnvelope(ctx, config, checked.upstream, body, peeked);
  if (head) await forward(ctx, config, checked.upstream, body, head);
}

/** Exact path (case-sensitive), trailing slash allowed; every method lands here so others get our 405. */
export function createTunnelRouter(config: RouterConfig): Router {
  const router = new Router({ sensitive: true, strict: false });
  router.all(config.path, async (ctx) => {
    await handle(ctx, config);
    if (ctx.status >= 400) await drainRefusedUpload(ctx, config.maxBytes, config.bodyTimeoutMs);
  });
  return router;
}
