import { topLevelStringValue } from "./json-top-level";

const NEWLINE = 0x0a;
// The largest time a JavaScript Date holds (ms since the epoch); past it toISOString() throws.
const MAX_DATE_MS = 8.64e15;

/**
 * The envelope with its header's top-level `sent_at` moved forward by `waitedMs`, every other
 * byte as it was. Sentry corrects event timestamps by the difference between its clock and
 * `sent_at`; left alone, an envelope that waited an hour in the spool would have its events
 * shifted an hour into the future. Returns the body itself when there is no usable `sent_at`
 * (none, not a plain date string, or one that cannot be moved); it never throws.
 */
export function withSentAtMovedForward(body: Buffer, waitedMs: number): Buffer {
  if (!(waitedMs > 0)) return body;
  const newline = body.indexOf(NEWLINE);
  const line = body.subarray(0, newline === -1 ? body.length : newline);
  let header: unknown;
  try {
    header = JSON.parse(line.toString("utf8"));
  } catch {
    return body;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) return body;
  const sentAt = (header as { sent_at?: unknown }).sent_at;
  if (typeof sentAt !== "string") return body;
  const value = topLevelStringValue(line, "sent_at");
  // The raw bytes must be the parsed value (no escapes), so that only they change.
  if (!value || line.toString("latin1", value.start, value.end) !== sentAt) return body;
  const moved = Date.parse(sentAt) + waitedMs;
  if (!Number.isFinite(moved) || Math.abs(moved) > MAX_DATE_MS) return body;
  return Buffer.concat([body.subarray(0, value.start), Buffer.from(new Date(moved).toISOString(), "latin1"), body.subarray(value.end)]);
}

/** The body is the envelope as written (no Content-Encoding, or identity), so its sent_at can be read. */
export function isPlainBody(headers: Readonly<Record<string, string>>): boolean {
  const encoding = (headers["content-encoding"] ?? "").trim().toLowerCase();
  return encoding === "" || encoding === "identity";
}
