import { NONCE_LENGTH } from "../http/nonce";

/**
 * A stored body as text: where the renderer's nonces are in it (as UTF-8 byte offsets, the
 * StoredAnswer's format) and the text with a fresh nonce written there. Strings only, on V8's
 * heap, which its GC compacts and gives back: a miss, and an answer written once (a Redis hit),
 * allocate nothing outside it, so a flood of distinct URLs leaves no free holes in malloc's
 * arena that the process keeps (docs/decisions/0103-page-cache-memory-off-malloc.md).
 */

export const NONCE_ATTRIBUTE = 'nonce="';
const QUOTE = '"';

/** The UTF-8 byte offset of each `nonce="<nonce>"` value in `text`, in order. */
export function nonceByteOffsets(text: string, nonce: string): number[] {
  const attribute = `${NONCE_ATTRIBUTE}${nonce}${QUOTE}`;
  const slots: number[] = [];
  let chars = 0;
  let bytes = 0;
  for (let at = text.indexOf(attribute); at >= 0; at = text.indexOf(attribute, at + attribute.length)) {
    const value = at + NONCE_ATTRIBUTE.length;
    bytes += Buffer.byteLength(text.slice(chars, value));
    chars = value;
    slots.push(bytes);
  }
  return slots;
}

/** UTF-8 bytes of the UTF-16 code unit at `i` of `text` (a surrogate pair counts 4 on its first unit, 0 on its second). */
function unitBytes(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit < 0xdc00) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next < 0xe000 ? 4 : 3;
  }
  if (unit >= 0xdc00 && unit < 0xe000 && i > 0) {
    const previous = text.charCodeAt(i - 1);
    if (previous >= 0xd800 && previous < 0xdc00) return 0;
  }
  return 3;
}

/**
 * The character offsets of the byte `slots` that are whole `nonce="…"` values of NONCE_LENGTH
 * ASCII characters, in order and apart, as stored-page.ts checks its bytes; the others are left
 * out (their scripts are refused by the CSP).
 */
function charSlots(text: string, slots: readonly number[]): number[] {
  const ascii = Buffer.byteLength(text) === text.length;
  const found: number[] = [];
  let chars = 0;
  let bytes = 0;
  // In order, as the walk through the text needs; a slot given twice is written once.
  const ordered = slots.filter((slot) => Number.isInteger(slot)).sort((a, b) => a - b);
  for (const slot of ordered) {
    if (!ascii) {
      while (bytes < slot && chars < text.length) bytes += unitBytes(text, chars++);
      if (bytes !== slot) continue;
    }
    const at = ascii ? slot : chars;
    const previousEnd = found.length > 0 ? (found[found.length - 1] as number) + NONCE_LENGTH : 0;
    if (at < previousEnd || at < NONCE_ATTRIBUTE.length || at + NONCE_LENGTH >= text.length) continue;
    if (!text.startsWith(NONCE_ATTRIBUTE, at - NONCE_ATTRIBUTE.length) || text[at + NONCE_LENGTH] !== QUOTE) continue;
    if (!/^[\x20-\x7e]*$/.test(text.slice(at, at + NONCE_LENGTH))) continue;
    found.push(at);
  }
  return found;
}

/** The pieces of `text` around the renderer's nonce slots: a nonce goes between each two. Worked out once per answer. */
export function textAroundNonces(text: string, slots: readonly number[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const slot of charSlots(text, slots)) {
    pieces.push(text.slice(from, slot));
    from = slot + NONCE_LENGTH;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** The text with `fresh` (NONCE_LENGTH ASCII characters) between each two of its `pieces`: one flat string, written as it is. */
export function joinWithNonce(pieces: readonly string[], fresh: string): string {
  return pieces.join(fresh);
}

/** `text` with `fresh` at each of the renderer's nonce slots. */
export function textWithNonce(text: string, slots: readonly number[], fresh: string): string {
  return joinWithNonce(textAroundNonces(text, slots), fresh);
}
