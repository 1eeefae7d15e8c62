import { describe, expect, it } from "vitest";
import { canonicalIp, clientKey, ipv6Groups, maskGroups } from "#src/server/limits/client-key";

describe("ipv6Groups", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["0:0:0:0:0:0:0:1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["2001:db8::", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]],
    ["2001:DB8:0:0:1::1", [0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]],
    ["2001:0db8:0000:0000:0001:0000:0000:0001", [0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]],
    ["fe80::1:2:3", [0xfe80, 0, 0, 0, 0, 1, 2, 3]],
    ["::ffff:198.51.100.5", [0, 0, 0, 0, 0, 0xffff, 0xc633, 0x6405]],
    ["64:ff9b::192.0.2.33", [0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x221]],
  ])("expands %s", (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });
});

describe("maskGroups", () => {
  const all = [0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff];
  it.each([
    [128, all],
    [64, [0xffff, 0xffff, 0xffff, 0xffff, 0, 0, 0, 0]],
    [56, [0xffff, 0xffff, 0xffff, 0xff00, 0, 0, 0, 0]],
    [48, [0xffff, 0xffff, 0xffff, 0, 0, 0, 0, 0]],
    [1, [0x8000, 0, 0, 0, 0, 0, 0, 0]],
    [127, [0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xfffe]],
  ])("keeps the first %i bits", (prefix, groups) => {
    expect(maskGroups(all, prefix)).toEqual(groups);
  });
});

describe("canonicalIp", () => {
  it.each([
    ["2001:db8::1", "2001:db8::1"],
    ["2001:DB8::1", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["2001:db8:0:0:1::1", "2001:db8::1:0:0:1"],
    ["2001:db8::1:0:0:1", "2001:db8::1:0:0:1"],
    ["::1", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["::", "::"],
    ["fe80::1%eth0", "fe80::1"],
    ["[fe80::1%eth0]:80", "fe80::1"],
    ["198.51.100.5", "198.51.100.5"],
    ["198.51.100.5:1234", "198.51.100.5"],
    ["::ffff:198.51.100.5", "198.51.100.5"],
    ["::FFFF:c633:6405", "198.51.100.5"],
    ["[::ffff:198.51.100.5]:8080", "198.51.100.5"],
    [" 203.0.113.9 ", "203.0.113.9"],
  ])("reads %s as %s", (text, ip) => {
    expect(canonicalIp(text)).toBe(ip);
  });

  it.each(["", "unknown", "not-an-ip", "198.51.100.256", "198.051.100.5", "[2001:db8::1", "2001:db8::1:2:3:4:5:6:7", "[]:80", "::ffff:"])(
    "reads %j as no IP",
    (text) => {
      expect(canonicalIp(text)).toBeUndefined();
    },
  );
});

describe("clientKey", () => {
  it("gives every spelling of one IPv4 client one key", () => {
    const spellings = ["198.51.100.5", "::ffff:198.51.100.5", "198.51.100.5:1234", "[::ffff:198.51.100.5]:80", "::ffff:c633:6405"];
    expect(new Set(spellings.map((text) => clientKey(text)))).toEqual(new Set(["198.51.100.5"]));
  });

  it("counts IPv6 clients by their /64 by default, whatever the spelling", () => {
    const spellings = ["2001:db8::1", "2001:DB8::1", "[2001:db8::1]", "[2001:db8::1]:443", "2001:db8:0:0:ffff:ffff:ffff:ffff", "2001:0db8::abcd:1"];
    expect(new Set(spellings.map((text) => clientKey(text)))).toEqual(new Set(["2001:db8::/64"]));
    expect(clientKey("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
  });

  it("counts by another prefix when told, the whole address at 128", () => {
    expect(clientKey("2001:db8:aa:bbcc::1", 48)).toBe("2001:db8:aa::/48");
    expect(clientKey("2001:db8:aa:bbcc::1", 56)).toBe("2001:db8:aa:bb00::/56");
    expect(clientKey("2001:DB8:0:0:1::1", 128)).toBe("2001:db8::1:0:0:1");
    expect(clientKey("2001:db8:0:0:1::1", 128)).toBe(clientKey("2001:db8::1:0:0:1", 128));
  });

  it("reads loopback, the unspecified address and zone ids", () => {
    expect(clientKey("::1")).toBe("::/64");
    expect(clientKey("0:0:0:0:0:0:0:1", 128)).toBe("::1");
    expect(clientKey("::", 128)).toBe("::");
    expect(clientKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(clientKey("fe80::1%eth0", 128)).toBe(clientKey("fe80::1", 128));
  });

  it("keeps text that is no IP address as a key of its own, and names an empty one", () => {
    expect(clientKey("not-an-ip")).toBe("not-an-ip");
    expect(clientKey("[2001:db8::1")).toBe("[2001:db8::1");
    expect(clientKey("")).toBe("unknown");
  });
});
