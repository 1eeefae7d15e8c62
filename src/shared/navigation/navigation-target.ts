/**
 * What the router does with a URL it did not build itself (a link's href, a redirect target, a
 * form's action, the address after back or forward), by the document's own rules:
 *   client   - this origin over http(s): the router may load it with a data request;
 *   document - another origin over http(s): the browser loads it;
 *   refused  - anything else (javascript:, data:, mailto:, unparseable): never followed.
 * Pure and total: it never throws, so it can be checked against arbitrary input.
 */
export type NavigationTarget = { kind: "client"; url: URL } | { kind: "document"; url: URL } | { kind: "refused" };

const WEB = new Set(["http:", "https:"]);

export function navigationTarget(to: string, base: string | URL): NavigationTarget {
  let url: URL;
  let here: URL;
  try {
    here = new URL(base);
    url = new URL(to, here);
  } catch {
    return { kind: "refused" };
  }
  if (!WEB.has(url.protocol)) return { kind: "refused" };
  return url.origin === here.origin ? { kind: "client", url } : { kind: "document", url };
}

/** A fragment's element id: percent-decoded where it decodes, as written where it does not. */
export function fragmentId(hash: string): string {
  const raw = hash.startsWith("#") ? hash.slice(1) : hash;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a lone `%` or a broken escape: the browser's own lookup uses the text as is
  }
}
