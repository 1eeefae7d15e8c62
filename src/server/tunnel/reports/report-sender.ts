import type { Upstream } from "../check/upstream-url";
import type { RequestDispatcher } from "../contract/types";
import type { Spool } from "../spool";
import type { ReportSender } from "./client-reports";
import { reportHeaders } from "./client-report";

// Client reports are category `internal`: only a limit on everything holds them in the spool.
const REPORT_CATEGORIES = ["internal"];

/**
 * How a report leaves: into the spool like any envelope (on disk, delivered by its worker
 * however long the ingest is down); without a spool, straight to the ingest, once.
 */
export function reportSender(spool: Spool | undefined, dispatcher: RequestDispatcher, headersTimeoutMs: number, bodyTimeoutMs: number): ReportSender {
  if (spool) {
    return (upstream: Upstream, body: Buffer) => spool.add({ receivedAt: Date.now(), upstream, headers: reportHeaders(), categories: REPORT_CATEGORIES, body });
  }
  return async (upstream: Upstream, body: Buffer) => {
    const response = await dispatcher.request({
      origin: upstream.origin,
      path: upstream.path,
      method: "POST",
      headers: reportHeaders(),
      body,
      headersTimeout: headersTimeoutMs,
      bodyTimeout: bodyTimeoutMs,
    });
    await response.body.dump();
  };
}
