import { isIP, SocketAddress } from "node:net";

/** The network an IPv6 client is counted by when nothing else is configured: one customer's /64. */
export const DEFAULT_IPV6_PREFIX = 64;

// `[addr]`, `[addr]:port` or `a.b.c.d:port`, as some proxies write X-Forwarded-For.
const BRACKETED = /^\[([^\]]*)\](?::\d{1,5})?$/;
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;

/** The eight 16-bit groups of an IPv6 address isIP() accepted (no zone), `::` and a dotted tail expanded. */
export function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = text.includes(".") ? text.slice(text.lastIndexOf(":") + 1) : "";
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split(".").map(Number);
    text = `${text.slice(0, text.length - dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The groups with every bit past the first `prefix` cleared. */
export function maskGroups(groups: readonly number[], prefix: number): number[] {
  return groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, prefix - index * 16));
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
}

/** The address a text names: IPv4 as dotted text, IPv6 as its eight groups; undefined when it is no IP. */
function addressOf(text: string): string | number[] | undefined {
  const trimmed = text.trim();
  const bare = BRACKETED.exec(trimmed)?.[1] ?? IPV4_WITH_PORT.exec(trimmed)?.[1] ?? trimmed;
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(bare.replace(/%.*$/, ""));
  return isIpv4Mapped(groups) ? ipv4Of(groups) : groups;
}

/**
 * The address a text names, in one spelling: brackets, a port and a zone id removed, IPv6 in its
 * canonical lower-case compressed form, an IPv4-mapped IPv6 address as IPv4; undefined when the
 * text is no IP address.
 */
export function canonicalIp(text: string): string | undefined {
  const address = addressOf(text);
  return typeof address === "object" ? formatIpv6(address) : address;
}

/**
 * The key every per-client limit counts a visitor by: its IP in one spelling (canonicalIp), an
 * IPv6 address reduced to its first `ipv6Prefix` bits, since one subscriber holds a whole /64 and
 * could otherwise take a new address per request. Text that is no IP address is a key of its own.
 */
export function clientKey(text: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const address = addressOf(text);
  if (address === undefined) return text.trim() || "unknown";
  if (typeof address === "string") return address;
  if (ipv6Prefix >= 128) return formatIpv6(address);
  return `${formatIpv6(maskGroups(address, ipv6Prefix))}/${ipv6Prefix}`;
}

function isIpv4Mapped(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

function ipv4Of(groups: readonly number[]): string {
  const [high = 0, low = 0] = groups.slice(6);
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** RFC 5952's form (lower case, longest run of zeros as `::`), as the platform's inet_ntop writes it. */
function formatIpv6(groups: readonly number[]): string {
  return new SocketAddress({ address: groups.map((group) => group.toString(16)).join(":"), family: "ipv6" }).address;
}
