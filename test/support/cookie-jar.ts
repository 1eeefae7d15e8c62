/** One cookie as a browser keeps it: its value and whether it outlives the browser (Expires or Max-Age). */
interface KeptCookie {
  value: string;
  persistent: boolean;
  attributes: string;
}

/**
 * The cookies a browser would keep from Set-Cookie lines, by name (one site, Path=/ only):
 * a line replaces the cookie of its name, one already expired removes it, and `restart()` drops
 * the cookies without Expires or Max-Age, as closing the browser does.
 */
export class CookieJar {
  readonly #kept = new Map<string, KeptCookie>();

  take(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...rest] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      const attributes = rest.map((part) => part.trim().toLowerCase());
      const expires = attributes.find((part) => part.startsWith("expires="));
      const maxAge = attributes.find((part) => part.startsWith("max-age="));
      const gone = (expires && Date.parse(expires.slice(8)) <= Date.now()) || (maxAge && Number(maxAge.slice(8)) <= 0);
      if (gone) this.#kept.delete(name);
      else this.#kept.set(name, { value, persistent: Boolean(expires || maxAge), attributes: attributes.join("; ") });
    }
    return this;
  }

  /** The browser was closed and opened again. */
  restart(): this {
    for (const [name, cookie] of this.#kept) if (!cookie.persistent) this.#kept.delete(name);
    return this;
  }

  /** The lowercase attributes the cookie of this name was last set with. */
  attributesOf(name: string): string | undefined {
    return this.#kept.get(name)?.attributes;
  }

  get header(): string {
    return [...this.#kept].map(([name, { value }]) => `${name}=${value}`).join("; ");
  }
}
