import type { ContentEncoding } from "../check/envelope-header";
import { PrefixDecoder } from "../check/prefix-decoder";

/**
 * The decoded envelope, or undefined when it cannot be decoded or decodes past `maxDecodedBytes`
 * (a bomb costs at most that much work and memory).
 */
export async function decodeEnvelope(body: Buffer, encoding: ContentEncoding, maxDecodedBytes: number): Promise<Buffer | undefined> {
  if (encoding === "identity") return body;
  const decoder = new PrefixDecoder(encoding, maxDecodedBytes);
  try {
    const decoded = Buffer.concat([...(await decoder.write(body)), ...(await decoder.end())]);
    return decoded.length > maxDecodedBytes ? undefined : decoded;
  } catch {
    return undefined;
  } finally {
    decoder.close();
  }
}
