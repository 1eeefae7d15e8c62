import { count, FILTERED, keyKind, type ScrubCounts, scrubString } from "./rules";

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === "object" && value !== null;

/** A header list as Sentry's protocol allows it, `[["Cookie", "a=b"], …]`: the pair's name is its key. */
const pairKey = (container: Container, key: string | number): string | undefined =>
  Array.isArray(container) && container.length === 2 && key === 1 && typeof container[0] === "string" ? container[0] : undefined;

/**
 * Applies Relay's default rules to a parsed event or transaction, in place: values under
 * password-like keys at any depth and cookies (`request.cookies`, a `Cookie` header) become
 * `[Filtered]`, strings are scrubbed (see scrubString); with `ips`, `user.ip_address` is removed.
 * Walks with its own stack, so an event nested however deep cannot overflow the call stack.
 * Returns what it replaced, by rule (empty: the event is unchanged).
 */
export function scrubEvent(event: Record<string, unknown>, ips: boolean): ScrubCounts {
  const counts: ScrubCounts = {};
  const request = event.request;
  if (isContainer(request) && !Array.isArray(request) && request.cookies != null && request.cookies !== FILTERED) {
    request.cookies = FILTERED;
    count(counts, "cookie");
  }
  const user = event.user;
  if (ips && isContainer(user) && !Array.isArray(user) && "ip_address" in user) {
    delete user.ip_address;
    count(counts, "ip");
  }
  // Each entry: a container, and whether its strings may hold addresses to mask.
  const stack: Array<[Container, boolean]> = [[event, ips]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [container, maskIps] = next;
    const keys: Array<string | number> = Array.isArray(container) ? container.map((_value, index) => index) : Object.keys(container);
    for (const key of keys) {
      const value = (container as Record<string | number, unknown>)[key];
      if (value === null || value === undefined || value === FILTERED) continue;
      const name = typeof key === "string" ? key : pairKey(container, key);
      const kind = name === undefined ? undefined : keyKind(name);
      if (kind === "password" || kind === "cookie") {
        (container as Record<string | number, unknown>)[key] = FILTERED;
        count(counts, kind);
      } else if (typeof value === "string") {
        const scrubbed = scrubString(value, maskIps && kind !== "version", counts);
        if (scrubbed !== value) (container as Record<string | number, unknown>)[key] = scrubbed;
      } else if (isContainer(value)) {
        stack.push([value, maskIps && kind !== "version"]);
      }
    }
  }
  return counts;
}
