import { connect } from "node:net";
import { Agent, errors } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { envelope, send, startTunnel, type TunnelServer } from "./harness";

// SaaS DSNs name real Sentry hosts; an Agent whose connector dials the fake ingest instead
// lets the test see exactly which host, path and query the tunnel asked for.
const SAAS_REGION = "https://abc123@o123.ingest.de.sentry.io/456";
const SAAS_PLAIN = "https://abc123@o77.ingest.sentry.io/88";

let fake: FakeIngest;
let tunnel: TunnelServer;
let agent: Agent;
const dialed: { hostname: string; protocol: string; port: string }[] = [];

beforeAll(async () => {
  fake = await startFakeIngest();
  agent = new Agent({
    connect: (options, callback) => {
      dialed.push({ hostname: options.hostname, protocol: options.protocol, port: options.port });
      const socket = connect(fake.port, "127.0.0.1");
      socket.once("connect", () => callback(null, socket));
      socket.once("error", (error) => callback(error, null));
    },
  });
  tunnel = await startTunnel({ allowedDsns: [SAAS_REGION, SAAS_PLAIN], dispatcher: agent });
});
afterEach(() => {
  fake.reset();
  dialed.length = 0;
});
afterAll(async () => {
  await tunnel.close();
  await agent.close();
  await fake.close();
});

describe("Sentry SaaS upstream", () => {
  it("posts to https://o<org>.ingest.<region>.sentry.io/api/<project>/envelope/?hsts=0", async () => {
    const res = await send(tunnel.port, "/monitoring?o=123&p=456&r=de", { body: envelope(SAAS_REGION) });
    expect(res.status).toBe(200);
    expect(dialed).toEqual([{ hostname: "o123.ingest.de.sentry.io", protocol: "https:", port: "" }]);
    expect(fake.requests[0]?.headers.host).toBe("o123.ingest.de.sentry.io");
    expect(fake.requests[0]?.url).toBe("/api/456/envelope/?hsts=0");
  });

  it("leaves the region out when the DSN has none", async () => {
    const res = await send(tunnel.port, "/monitoring?o=77&p=88", { body: envelope(SAAS_PLAIN) });
    expect(res.status).toBe(200);
    expect(fake.requests[0]?.headers.host).toBe("o77.ingest.sentry.io");
    expect(fake.requests[0]?.url).toBe("/api/88/envelope/?hsts=0");
  });

  it.each([
    ["a missing region", "/monitoring?o=123&p=456"],
    ["another region", "/monitoring?o=123&p=456&r=us"],
    ["another organisation", "/monitoring?o=124&p=456&r=de"],
    ["another project", "/monitoring?o=123&p=457&r=de"],
    ["no organisation", "/monitoring?p=456"],
  ])("rejects a query naming %s with 400", async (_case, path) => {
    const res = await send(tunnel.port, path, { body: envelope(SAAS_REGION) });
    expect(res.status).toBe(400);
    expect(res.json().detail).toBe("query does not match the envelope dsn");
    expect(dialed).toEqual([]);
  });

  it("answers 504 when connecting times out", async () => {
    const timingOut = new Agent({
      connect: (_options, callback) => setImmediate(() => callback(new errors.ConnectTimeoutError(), null)),
    });
    const server = await startTunnel({ allowedDsns: [SAAS_REGION], dispatcher: timingOut });
    try {
      const res = await send(server.port, "/monitoring?o=123&p=456&r=de", { body: envelope(SAAS_REGION) });
      expect(res.status).toBe(504);
      expect(res.json()).toEqual({ detail: "Sentry ingest timed out" });
      expect(server.counts.rejected).toEqual({ upstream_timeout: 1 });
    } finally {
      await server.close();
      await timingOut.close();
    }
  });
});
