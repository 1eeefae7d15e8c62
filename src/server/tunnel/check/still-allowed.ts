import type { Allowlist } from "./allowlist";
import { envelopeDsn, parseContentEncoding, peekHeaderLine } from "./envelope-header";

/**
 * Whether a spooled envelope's DSN is still on the allow list, read from its header as the
 * tunnel read it when it came (decoding a compressed one's first line only). An envelope
 * spooled before its DSN was removed from the list must not be sent once it is gone.
 */
export async function stillAllowed(allowlist: Allowlist, headers: Record<string, string>, body: Buffer): Promise<boolean> {
  const encoding = parseContentEncoding(headers["content-encoding"]);
  if (!encoding) return false;
  let sent = false;
  const read = async () => {
    if (sent) return undefined;
    sent = true;
    return body;
  };
  try {
    const { line } = await peekHeaderLine(read, encoding);
    return allowlist.match(envelopeDsn(line)) !== undefined;
  } catch {
    return false;
  }
}
