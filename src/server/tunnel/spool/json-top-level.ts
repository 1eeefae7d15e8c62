const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPENERS = new Set([0x7b, 0x5b]);
const CLOSERS = new Set([0x7d, 0x5d]);

export interface ByteRange {
  start: number;
  end: number;
}

/** The end (after the closing quote) of the JSON string starting at `start` (its opening quote). */
function stringEnd(json: Buffer, start: number): number {
  for (let i = start + 1; i < json.length; i++) {
    if (json[i] === BACKSLASH) i++;
    else if (json[i] === QUOTE) return i + 1;
  }
  return json.length;
}

/**
 * Where the string value of `key` in a JSON object's top level lies (between its quotes), in
 * bytes, without decoding the rest: keys nested in other values are skipped. The last one wins,
 * as in JSON.parse; undefined when the key is missing or its value is no string. Expects JSON
 * that parsed; the key is compared as raw bytes, so an escaped spelling of it is not found.
 */
export function topLevelStringValue(json: Buffer, key: string): ByteRange | undefined {
  const wanted = Buffer.from(`"${key}"`);
  let depth = 0;
  let expectKey = false;
  let currentKeyMatches = false;
  let found: ByteRange | undefined;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i] as number;
    if (byte === QUOTE) {
      const end = stringEnd(json, i);
      if (depth === 1 && expectKey) {
        currentKeyMatches = end - i === wanted.length && json.subarray(i, end).equals(wanted);
        expectKey = false;
      } else if (depth === 1 && currentKeyMatches) {
        found = { start: i + 1, end: end - 1 };
        currentKeyMatches = false;
      }
      i = end - 1;
    } else if (OPENERS.has(byte)) {
      if (depth === 1 && currentKeyMatches) found = undefined;
      currentKeyMatches = false;
      depth++;
      if (depth === 1) expectKey = byte === 0x7b;
    } else if (CLOSERS.has(byte)) {
      depth--;
    } else if (depth === 1 && byte === COMMA) {
      expectKey = true;
    } else if (depth === 1 && byte !== COLON && byte > 0x20 && currentKeyMatches) {
      // A number, true, false or null: the key's value is no string.
      found = undefined;
      currentKeyMatches = false;
    }
  }
  return found;
}
