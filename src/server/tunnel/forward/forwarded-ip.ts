import { SocketAddress } from "node:net";
import { canonicalIp, ipv6Groups, maskGroups } from "../../limits/client-key";

import type { ForwardIp } from "../contract/types";

// As Google Analytics and Matomo anonymise: the network is kept for geolocation, the host is not.
const IPV6_KEPT_BITS = 48;

/** The IPv4 address's /24 (203.0.113.7 → 203.0.113.0), or the IPv6 address's /48 (2001:db8:1:2::7 → 2001:db8:1::). */
export function truncateIp(ip: string): string {
  if (!ip.includes(":")) return ip.replace(/\.\d+$/, ".0");
  const groups = maskGroups(ipv6Groups(ip), IPV6_KEPT_BITS);
  return new SocketAddress({ address: groups.map((group) => group.toString(16)).join(":"), family: "ipv6" }).address;
}

/** The header's value for the visitor's address `text` (ctx.ip), or undefined when none is sent. */
export function forwardedIp(text: string, mode: ForwardIp): string | undefined {
  if (mode === "none") return undefined;
  // Sentry wants a plain IP: one spelling, and nothing that is no IP (from a trusted X-Forwarded-For).
  const ip = canonicalIp(text);
  return ip && mode === "truncated" ? truncateIp(ip) : ip;
}
