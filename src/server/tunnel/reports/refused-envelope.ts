import type { Context } from "koa";
import { ClientBody } from "../body/body-limit";
import type { Allowlist } from "../check/allowlist";
import { parseContentEncoding } from "../check/envelope-header";
import type { ClientReports } from "./client-reports";
import type { DiscardReason } from "./client-report";
import { countedItems } from "./counted-items";

/** The rest of the body after `head`, whole; undefined when the client left or sent more than `maxBytes`. */
export async function readRest(body: ClientBody, head: readonly Buffer[]): Promise<Buffer | undefined> {
  const chunks = [...head];
  try {
    for (let chunk = await body.read(); chunk !== undefined; chunk = await body.read()) chunks.push(chunk);
  } catch {
    await body.release();
    return undefined;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * An envelope refused before it was read (the per-client limit): read it, since it is drained
 * anyway, and count its items in its DSN's report when that DSN is allowed. One that cannot be
 * read or names no allowed DSN is not reported.
 */
export async function reportRefused(
  ctx: Context,
  reports: ClientReports,
  allowlist: Allowlist,
  maxBytes: number,
  reason: DiscardReason,
): Promise<void> {
  const declaredHeader = ctx.req.headers["content-length"];
  const declared = declaredHeader === undefined ? undefined : Number(declaredHeader);
  const encoding = parseContentEncoding(ctx.get("Content-Encoding") || undefined);
  if (!encoding || (declared !== undefined && !(declared <= maxBytes))) return;
  const whole = await readRest(new ClientBody(ctx.req, maxBytes, declared), []);
  const counted = whole && (await countedItems(whole, encoding));
  if (!counted) return;
  let allowed: ReturnType<Allowlist["match"]>;
  try {
    allowed = allowlist.match(counted.dsn);
  } catch {
    return;
  }
  if (allowed) reports.record({ dsn: counted.dsn, upstream: allowed.upstream }, reason, counted.counts);
}
