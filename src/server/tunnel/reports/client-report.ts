/** Sentry's discard reasons the tunnel reports (the SDKs' own names, which Sentry's Stats page shows). */
export type DiscardReason = "ratelimit_backoff" | "queue_overflow" | "network_error" | "event_processor" | "invalid";

export interface DiscardedEvents {
  reason: DiscardReason;
  category: string;
  quantity: number;
}

const ENVELOPE_HEADERS = { "content-type": "application/x-sentry-envelope" };

/** What a report envelope goes upstream with: no visitor's address, it is the tunnel's own. */
export const reportHeaders = (): Record<string, string> => ({ ...ENVELOPE_HEADERS });

/** An envelope holding one `client_report` item, addressed to `dsn`, as Sentry's SDKs send theirs. */
export function clientReportEnvelope(dsn: string, discarded: readonly DiscardedEvents[], now: number = Date.now()): Buffer {
  const header = JSON.stringify({ dsn, sent_at: new Date(now).toISOString() });
  const payload = Buffer.from(JSON.stringify({ timestamp: now / 1000, discarded_events: discarded }));
  const itemHeader = JSON.stringify({ type: "client_report", length: payload.length });
  return Buffer.concat([Buffer.from(`${header}\n${itemHeader}\n`), payload, Buffer.from("\n")]);
}
