import { describe, expect, it } from "vitest";
import { truncateIp } from "#src/server/tunnel/forward/forwarded-ip";
import { envelope, fakeIngestPerFile, send, startTunnel } from "../harness";

const ingest = fakeIngestPerFile();

/** What X-Sentry-Forwarded-For the ingest sees for a visitor at `visitor` (a trusted X-Forwarded-For), with SENTRY_TUNNEL_FORWARD_IP `mode`. */
async function forwardedFor(mode: "full" | "truncated" | "none" | undefined, visitor: string) {
  const tunnel = await startTunnel({ allowedDsns: [ingest.dsn], ...(mode ? { forwardIp: mode } : {}) }, { proxy: true });
  try {
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelope(ingest.dsn), headers: { "x-forwarded-for": visitor } });
    expect(res.status).toBe(200);
    const seen = ingest.fake.requests.at(-1);
    return seen && (Object.hasOwn(seen.headers, "x-sentry-forwarded-for") ? seen.headers["x-sentry-forwarded-for"] : null);
  } finally {
    await tunnel.close();
  }
}

describe("SENTRY_TUNNEL_FORWARD_IP", () => {
  it("full (the default) sends the visitor's address as it is", async () => {
    expect(await forwardedFor(undefined, "203.0.113.7")).toBe("203.0.113.7");
    expect(await forwardedFor("full", "2001:db8:1:2::7")).toBe("2001:db8:1:2::7");
  });

  it("truncated sends an IPv4 address's /24 and an IPv6 address's /48", async () => {
    expect(await forwardedFor("truncated", "203.0.113.7")).toBe("203.0.113.0");
    expect(await forwardedFor("truncated", "2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1::");
    // One spelling first: brackets, upper case and an IPv4-mapped form make no difference.
    expect(await forwardedFor("truncated", "[2001:DB8:0001:ffff::1]:443")).toBe("2001:db8:1::");
    expect(await forwardedFor("truncated", "::ffff:198.51.100.200")).toBe("198.51.100.0");
  });

  it("none sends no X-Sentry-Forwarded-For at all", async () => {
    expect(await forwardedFor("none", "203.0.113.7")).toBeNull();
    expect(await forwardedFor("none", "2001:db8:1:2::7")).toBeNull();
  });

  it("truncates without touching the network part", () => {
    expect(truncateIp("10.0.0.255")).toBe("10.0.0.0");
    expect(truncateIp("2001:db8:ffff:ffff::")).toBe("2001:db8:ffff::");
    expect(truncateIp("::1")).toBe("::");
  });

  it("refuses an unknown mode at start", async () => {
    await expect(startTunnel({ allowedDsns: [ingest.dsn], forwardIp: "partial" as never })).rejects.toThrow(/forwardIp/);
  });
});
