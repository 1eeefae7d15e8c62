const NEWLINE = 0x0a;
const SENT_AT = /"sent_at"\s*:\s*"([^"\\]*)"/g;

/**
 * The envelope with its header's `sent_at` moved forward by `waitedMs`, every other byte as it
 * was. Sentry corrects event timestamps by the difference between its clock and `sent_at`;
 * left alone, an envelope that waited an hour in the spool would have its events shifted an
 * hour into the future. Returns the body itself when there is no usable `sent_at`.
 */
export function withSentAtMovedForward(body: Buffer, waitedMs: number): Buffer {
  const newline = body.indexOf(NEWLINE);
  const end = newline === -1 ? body.length : newline;
  const line = body.toString("utf8", 0, end);
  let sentAt: unknown;
  try {
    sentAt = (JSON.parse(line) as { sent_at?: unknown }).sent_at;
  } catch {
    return body;
  }
  const sent = typeof sentAt === "string" ? Date.parse(sentAt) : Number.NaN;
  if (Number.isNaN(sent) || waitedMs <= 0) return body;
  // The header's own key, not one nested in another of its values (e.g. inside `trace`).
  const match = [...line.matchAll(SENT_AT)].findLast((candidate) => candidate[1] === sentAt);
  if (match?.index === undefined) return body;
  const valueStart = match.index + match[0].length - 1 - (sentAt as string).length;
  const moved = new Date(sent + waitedMs).toISOString();
  const header = line.slice(0, valueStart) + moved + line.slice(valueStart + (sentAt as string).length);
  return Buffer.concat([Buffer.from(header, "utf8"), body.subarray(end)]);
}
