import { afterEach, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { startTestApp, type TestApp } from "../../support/test-app";
import { envelope, send, startTunnel, type TunnelServer } from "../tunnel/harness";

// Eight addresses of one /64, written the ways proxies and clients write them.
const ONE_NETWORK = [
  "2001:db8:0:1::1",
  "2001:DB8:0:1::2",
  "[2001:db8:0:1::3]",
  "[2001:db8:0:1::4]:443",
  "2001:0db8:0000:0001:0000:0000:0000:0005",
  "2001:db8:0:1:ffff:ffff:ffff:ffff",
  "2001:db8:0:1:1234:5678:9abc:def0",
  "2001:db8:0:1::8",
];
const ONE_IPV4_CLIENT = ["198.51.100.5", "::ffff:198.51.100.5", "198.51.100.5:1234", "[::ffff:198.51.100.5]:80"];
const THREE_ALLOWED = [200, 200, 200];

let app: TestApp | undefined;
let tunnel: TunnelServer | undefined;
let ingest: FakeIngest | undefined;
afterEach(async () => {
  await Promise.all([app?.close(), tunnel?.close(), ingest?.close()]);
  app = tunnel = ingest = undefined;
});

/** The statuses of /diagnostics/limited (3 a minute per client) visited once from each address, behind a trusted proxy. */
async function pageStatuses(addresses: string[], env: Record<string, string> = {}): Promise<number[]> {
  app ??= await startTestApp({ TRUST_PROXY: "true", ENABLE_DIAGNOSTIC_ROUTES: "true", ...env });
  const statuses: number[] = [];
  for (const address of addresses) {
    const response = await fetch(`${app.url}/diagnostics/limited`, { headers: { "X-Forwarded-For": address } });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe("a page's rateLimit() behind a trusted proxy", () => {
  it("counts the addresses of one IPv6 /64 as one client", async () => {
    expect(await pageStatuses(ONE_NETWORK)).toEqual([...THREE_ALLOWED, 429, 429, 429, 429, 429]);
    // The neighbouring /64 is another client.
    expect(await pageStatuses(["2001:db8:0:2::1"])).toEqual([200]);
  });

  it("counts every spelling of one IPv4 address as one client", async () => {
    expect(await pageStatuses(ONE_IPV4_CLIENT)).toEqual([...THREE_ALLOWED, 429]);
    expect(await pageStatuses(["198.51.100.6"])).toEqual([200]);
  });

  it("counts by the prefix RATE_LIMIT_IPV6_PREFIX names", async () => {
    expect(await pageStatuses(ONE_NETWORK.slice(0, 5), { RATE_LIMIT_IPV6_PREFIX: "128" })).toEqual([200, 200, 200, 200, 200]);
    expect(await pageStatuses(["2001:db8:0:1::1", "2001:DB8:0:1:0::1", "[2001:db8:0:1::1]:8080"])).toEqual([200, 200, 429]);
  });

  it("keeps a forwarded value that is no IP as a client of its own", async () => {
    expect(await pageStatuses(["not-an-ip", "not-an-ip", "not-an-ip", "not-an-ip", "198.51.100.9"])).toEqual([...THREE_ALLOWED, 429, 200]);
  });
});

describe("the tunnel's limit behind a trusted proxy", () => {
  it("counts the addresses of one IPv6 /64, and every spelling of one IPv4 address, as one client", async () => {
    ingest = await startFakeIngest();
    const dsn = `http://abc123@127.0.0.1:${ingest.port}/42`;
    tunnel = await startTunnel({ allowedDsns: [dsn], rateLimitPerMinute: 3 }, { proxy: true });
    const server = tunnel;
    const statuses = async (addresses: string[]) => {
      const answers: number[] = [];
      for (const address of addresses) {
        answers.push((await send(server.port, "/monitoring?p=42", { body: envelope(dsn), headers: { "x-forwarded-for": address } })).status);
      }
      return answers;
    };
    expect(await statuses(ONE_NETWORK)).toEqual([...THREE_ALLOWED, 429, 429, 429, 429, 429]);
    expect(await statuses(ONE_IPV4_CLIENT)).toEqual([...THREE_ALLOWED, 429]);
    expect(ingest.requests).toHaveLength(6);
  });
});
