/** A session read before: its values (plain ones only) and when it expires. */
interface Remembered {
  values: Readonly<Record<string, string | number | boolean | null>>;
  expires: number | undefined;
}

// Enough for the visitors of a busy minute; cleared when full, so memory stays bounded (at most
// this many headers of at most MAX_HEADER_CHARS) whatever clients send.
const REMEMBERED_MAX = 512;
const MAX_HEADER_CHARS = 4096;

/**
 * Sessions already read, by the exact Cookie header that carried them: a visitor sends the same
 * header with every request until a cookie changes, and reading it again (two cookie look-ups,
 * the signature, base64 and JSON) is most of what a page that reads the session costs. Only a
 * session whose signature was found valid is remembered, and any change to the header (another
 * value, another signature) is a new key, checked in full. Values that are objects are never
 * shared between requests: such a session is not remembered.
 */
export interface RememberedSessions {
  /** The session this exact Cookie header carried, when it was read before and has not expired. */
  recall(header: string | undefined): Record<string, unknown> | undefined;
  /** Remembers (a copy of) a session found valid under this Cookie header, if its values are all plain. */
  remember(header: string | undefined, values: Record<string, unknown>, expires: number | undefined): void;
}

/** One cookie store's memory: another store (another app's, a test's) signs with other keys, so what one found valid says nothing to the other. */
export function rememberedSessions(): RememberedSessions {
  const remembered = new Map<string, Remembered>();
  return {
    recall(header) {
      if (header === undefined) return undefined;
      const known = remembered.get(header);
      if (!known || (known.expires !== undefined && known.expires < Date.now())) return undefined;
      return known.values;
    },
    remember(header, values, expires) {
      if (header === undefined || header.length > MAX_HEADER_CHARS) return;
      for (const key in values) {
        const value = values[key];
        if (typeof value === "object" && value !== null) return;
      }
      if (remembered.size >= REMEMBERED_MAX) remembered.clear();
      remembered.set(header, { values: { ...values } as Remembered["values"], expires });
    },
  };
}
