import type { Context } from "koa";
import type { ClientBody } from "../body/body-limit";
import { parseContentEncoding } from "../check/envelope-header";
import type { Upstream } from "../check/upstream-url";
import type { TunnelObserver } from "../contract/types";
import type { ForwardIp } from "../contract/types";
import type { Spool } from "../spool";
import type { HeldBytes } from "../body/body-copy";
import { EnvelopeScrubber, type ScrubDrop } from "./envelope-scrubber";
import type { ScrubRule } from "./rules";
import { ScrubbedUpload } from "./scrubbed-upload";

export { MAX_EVENT_BYTES, type ScrubDrop } from "./envelope-scrubber";
export { FILTERED, IP_MASK, type ScrubRule } from "./rules";
export { ScrubbedUpload } from "./scrubbed-upload";

/** SENTRY_TUNNEL_SCRUB. */
export type ScrubMode = "off" | "defaults";

/** Whose envelope an item was dropped from: the DSN its header names, and its ingest (a client report's target). */
export interface DropTarget {
  dsn: string;
  upstream: Upstream;
}

/** Hears of each item the scrubber dropped (`invalid`), for client reports. */
export type ScrubDropListener = (target: DropTarget, drop: ScrubDrop) => void;

export interface ScrubConfig {
  forwardIp?: ForwardIp;
  observer: TunnelObserver | undefined;
  onDrop?: ScrubDropListener;
}

function dsnOf(headerLine: Buffer | undefined): string {
  try {
    const dsn = (JSON.parse(headerLine?.toString("utf8") ?? "") as { dsn?: unknown }).dsn;
    return typeof dsn === "string" ? dsn : "";
  } catch {
    return "";
  }
}

/**
 * The scrubbed upload for one envelope, and the headers it goes with: uncompressed, so no
 * `Content-Encoding`, and no `Content-Length` (the scrubbed length differs; undici sets it for
 * a buffer, streams go chunked).
 */
export function scrubbedUpload(
  ctx: Context,
  config: ScrubConfig,
  upstream: Upstream,
  body: ClientBody,
  head: Buffer[],
  headers: Record<string, string>,
): ScrubbedUpload {
  const encoding = parseContentEncoding(ctx.get("Content-Encoding") || undefined) ?? "identity";
  delete headers["content-encoding"];
  delete headers["content-length"];
  let headerLine: Buffer | undefined;
  const scrubber = new EnvelopeScrubber(
    { ips: (config.forwardIp ?? "full") !== "full" },
    {
      header: (line) => {
        headerLine = line;
      },
      scrubbed: (counts) => {
        for (const [rule, n] of Object.entries(counts)) config.observer?.scrubbed?.(rule as ScrubRule, n);
      },
      dropped: (drop) => config.onDrop?.({ dsn: dsnOf(headerLine), upstream }, drop),
    },
  );
  return new ScrubbedUpload(body, head, encoding, scrubber);
}

/** With the ingest known to be down: the scrubbed envelope whole, for the spool, if it fits (see readForSpool). */
export async function scrubbedForSpool(
  scrubbed: ScrubbedUpload,
  prepared: Buffer | AsyncGenerator<Buffer>,
  spool: Spool,
  budget: HeldBytes | undefined,
): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(prepared)) return prepared;
  if (!budget) return undefined;
  scrubbed.copy(spool.maxEnvelopeBytes, budget);
  return scrubbed.whole();
}
