import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { send, until } from "../harness";
import { datedEnvelope, startSpoolingTunnel } from "./spool-harness";

let healthy: FakeIngest;
let down: FakeIngest;
const dsnOf = (fake: FakeIngest, project: number) => `http://key${project}@127.0.0.1:${fake.port}/${project}`;

beforeAll(async () => {
  [healthy, down] = await Promise.all([startFakeIngest(), startFakeIngest()]);
});
afterEach(() => {
  healthy.reset();
  down.reset();
});
afterAll(() => Promise.all([healthy.close(), down.close()]));

const post = (port: number, project: number, body: Buffer) =>
  send(port, `/monitoring?p=${project}`, { body, headers: { "content-type": "text/plain;charset=UTF-8" } });
const arrived = (fake: FakeIngest, tag: string) => fake.requests.filter((r) => r.complete && !r.aborted && r.body.includes(tag));

/** Sends to the healthy ingest and says how long it took until the ingest had the whole envelope. */
async function timedDelivery(port: number, tag: string, size: number): Promise<number> {
  const body = datedEnvelope(dsnOf(healthy, 1), `${tag}${"x".repeat(size)}`);
  const before = healthy.requests.length;
  const started = performance.now();
  const res = await post(port, 1, body);
  // Only this request is looked at while it arrives: the bodies before it are not read again.
  await healthy.waitFor(() => healthy.requests.slice(before).some((r) => r.complete), 5_000);
  const elapsed = performance.now() - started;
  // The ingest's own answer, relayed: not the spool's `{}`.
  expect(res.status).toBe(200);
  expect(res.text()).toBe('{"id":"fake"}');
  expect(healthy.requests.slice(before).map((r) => r.body.equals(body))).toEqual([true]);
  return elapsed;
}

interface Outage {
  name: string;
  /** Takes the down ingest down; returns how to bring it back. */
  fail(): Promise<() => Promise<void>>;
}

const OUTAGES: Outage[] = [
  {
    name: "refusing connections",
    fail: async () => {
      await down.stop();
      return () => down.start();
    },
  },
  {
    name: "stalled (accepts, never answers)",
    fail: async () => {
      down.response.hang = true;
      return async () => {
        down.response.hang = false;
      };
    },
  },
];

describe.each(OUTAGES)("one allowed DSN's ingest $name, another healthy", (outage) => {
  it("forwards the healthy one's 1 KiB and 4 MiB envelopes at once, spools the other's, and delivers that backlog once it is back", async () => {
    const tunnel = await startSpoolingTunnel(
      dsnOf(healthy, 1),
      {},
      { allowedDsns: [dsnOf(healthy, 1), dsnOf(down, 2)], maxBytes: 8 * 1024 * 1024 },
    );
    try {
      const recover = await outage.fail();
      const backlog = ["one", "two", "three", "four"].map((tag) => datedEnvelope(dsnOf(down, 2), `backlog-${tag}`));
      for (const body of backlog) {
        const res = await post(tunnel.port, 2, body);
        expect(res.status).toBe(200);
        expect(res.text()).toBe("{}");
      }
      expect(tunnel.counts.circuit).toContain("open");
      // While the down ingest is probed and backed off, the healthy one's envelopes go straight
      // through, each relayed with the ingest's answer. The fastest of three rounds bounds the
      // time: one round slowed by a busy machine says nothing of the tunnel.
      const small: number[] = [];
      const large: number[] = [];
      for (let round = 0; round < 3; round++) {
        small.push(await timedDelivery(tunnel.port, `small-${round}-`, 1024));
        large.push(await timedDelivery(tunnel.port, `large-${round}-`, 4 * 1024 * 1024));
      }
      expect(Math.min(...small)).toBeLessThan(1_000);
      expect(Math.min(...large)).toBeLessThan(1_000);
      expect(tunnel.counts.rejected).toEqual({});
      expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(4);
      expect(tunnel.tunnel.spoolDepths?.()).toEqual([
        { upstream: `127.0.0.1:${down.port}`, envelopes: 4, bytes: expect.any(Number), oldestReceivedAt: expect.any(Number) },
      ]);

      await recover();
      await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0, 5_000);
      const firsts = backlog.map((_, i) => down.requests.findIndex((r) => r.complete && r.body.includes(`backlog-${["one", "two", "three", "four"][i]}`)));
      expect(firsts.every((index) => index >= 0)).toBe(true);
      // Oldest first where nothing failed against an envelope; a stalled ingest's probe took one
      // envelope (and timed out against it), which then waits on its own backoff while the
      // others go, as the spool's guide says.
      if (outage.name.startsWith("refusing")) expect([...firsts].sort((a, b) => a - b)).toEqual(firsts);
    } finally {
      await tunnel.close();
    }
  });
});

it("delivers one upstream's spooled backlog while another's ingest stays down, whatever their order in the spool", async () => {
  const tunnel = await startSpoolingTunnel(dsnOf(healthy, 1), {}, { allowedDsns: [dsnOf(healthy, 1), dsnOf(down, 2)] });
  try {
    await down.stop();
    await healthy.stop();
    // Both down: everything is spooled, the down one's first.
    for (const tag of ["d1", "d2", "d3"]) expect((await post(tunnel.port, 2, datedEnvelope(dsnOf(down, 2), tag))).status).toBe(200);
    for (const tag of ["h1", "h2", "h3"]) expect((await post(tunnel.port, 1, datedEnvelope(dsnOf(healthy, 1), tag))).status).toBe(200);
    expect(tunnel.tunnel.spoolStats?.().envelopes).toBe(6);
    await healthy.start();
    await until(() => ["h1", "h2", "h3"].every((tag) => arrived(healthy, `"${tag}"`).length > 0), 3_000);
    const order = ["h1", "h2", "h3"].map((tag) => healthy.requests.findIndex((r) => r.body.includes(`"${tag}"`)));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Delivered envelopes leave the store just after the ingest's answer.
    await until(() => tunnel.tunnel.spoolStats?.().envelopes === 3);
    expect(down.requests).toEqual([]);
    await down.start();
    await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0, 5_000);
  } finally {
    await down.start().catch(() => {});
    await healthy.start().catch(() => {});
    await tunnel.close();
  }
});
