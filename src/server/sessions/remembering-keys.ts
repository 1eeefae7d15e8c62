import Keygrip from "keygrip";

// Enough for the visitors of a busy minute; cleared when full, so its memory stays bounded
// (a session cookie is at most 4 KB) whatever a client sends.
const REMEMBERED_MAX = 512;

/**
 * Koa's signing keys, remembering which signed cookies were found valid. Checking a signature
 * costs three HMACs and random bytes (keygrip signs, then compares in constant time through two
 * more HMACs), many times what reading the session costs otherwise; a visitor sends the same
 * signed cookie with every request until it changes. Only valid pairs are kept, by their exact
 * text, so a forged cookie is checked in full every time.
 */
export function rememberingKeys(secrets: readonly string[]): Keygrip {
  const keygrip = new Keygrip([...secrets]);
  const valid = new Map<string, number>();
  const index = (data: string, digest: string): number => {
    const pair = `${digest}\n${data}`;
    const known = valid.get(pair);
    if (known !== undefined) return known;
    const found = keygrip.index(data, digest);
    if (found < 0) return found;
    if (valid.size >= REMEMBERED_MAX) valid.clear();
    valid.set(pair, found);
    return found;
  };
  return { sign: (data: string) => keygrip.sign(data), index, verify: (data: string, digest: string) => index(data, digest) > -1 };
}
