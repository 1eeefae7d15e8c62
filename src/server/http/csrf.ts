import type { Context } from "koa";
import { refuse } from "./refuse";

/** Which check refused a request: also the label of its counter. */
export type CsrfCheck = "sec_fetch_site" | "origin" | "referer";

export interface CsrfRefusal {
  check: CsrfCheck;
  /** The origin the request claimed (never a full Referer, which may carry a query). */
  claimedOrigin?: string;
  message: string;
}

export interface CsrfOptions {
  /** Origins trusted besides the site's own (`ALLOWED_ORIGINS`), already normalised. */
  allowedOrigins: readonly string[];
  onRefused?: (ctx: Context, refusal: CsrfRefusal) => void;
}

const MESSAGES: Record<CsrfCheck, string> = {
  sec_fetch_site: "Forbidden: cross-site request (Sec-Fetch-Site: cross-site)",
  origin: "Forbidden: the Origin header names another site",
  referer: "Forbidden: the Referer header names another site",
};

/** `null` for "null", an opaque origin, and anything that is not a URL. */
const originOf = (value: string): string | null => {
  const origin = URL.parse(value)?.origin;
  return origin && origin !== "null" ? origin : null;
};

/** The request's own origin; Koa's protocol and host read X-Forwarded-Proto/-Host under TRUST_PROXY. */
const ownOrigin = (ctx: Context) => originOf(`${ctx.protocol}://${ctx.host}`);

/**
 * The origin the browser says the request comes from: its Origin header, else its Referer's
 * origin. Undefined when it sent neither, as non-browser clients do.
 */
function claimedOrigin(ctx: Context): { check: "origin" | "referer"; origin: string | null } | undefined {
  const origin = ctx.get("Origin");
  if (origin) return { check: "origin", origin: originOf(origin) };
  const referer = ctx.get("Referer");
  if (referer) return { check: "referer", origin: originOf(referer) };
  return undefined;
}

/**
 * Refuses a state-changing request that a browser sent from another site. (Koa 3's `ctx.origin`
 * is the Origin header, not the request's own origin: hence ownOrigin.) A request with
 * neither Origin nor Referer is not from a browser, so it carries no ambient credentials and
 * passes. An allowed origin passes even from another site, whose requests say cross-site.
 */
export function csrfRefusal(ctx: Context, allowedOrigins: ReadonlySet<string>): CsrfRefusal | undefined {
  const claimed = claimedOrigin(ctx);
  if (claimed?.origin && allowedOrigins.has(claimed.origin)) return undefined;
  const claimedFields = claimed?.origin ? { claimedOrigin: claimed.origin } : {};
  if (ctx.get("Sec-Fetch-Site").toLowerCase() === "cross-site") {
    return { check: "sec_fetch_site", message: MESSAGES.sec_fetch_site, ...claimedFields };
  }
  if (!claimed || (claimed.origin !== null && claimed.origin === ownOrigin(ctx))) return undefined;
  return { check: claimed.check, message: MESSAGES[claimed.check], ...claimedFields };
}

/**
 * Refuses (403) a state-changing request a browser sent from another site; true when it did.
 * The page pipeline runs it for an action op only (its classification decided the method is not
 * safe); the tunnel, which checks DSNs instead, never reaches it.
 */
export function crossSiteGuard(options: CsrfOptions): (ctx: Context) => boolean {
  const allowed = new Set(options.allowedOrigins);
  return (ctx) => {
    const refusal = csrfRefusal(ctx, allowed);
    if (!refusal) return false;
    options.onRefused?.(ctx, refusal);
    refuse(ctx, 403, refusal.message);
    return true;
  };
}
