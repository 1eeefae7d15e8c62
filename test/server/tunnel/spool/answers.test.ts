import { expect, it } from "vitest";
import { send, until } from "../harness";
import { datedEnvelope, startSpoolingTunnel, sharedFakeIngest, withoutSentAt } from "./spool-harness";

const ingest = sharedFakeIngest();

const post = (port: number, body: Buffer) => send(port, "/monitoring?p=42", { body });
const arrivals = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(tag));

it("holds a category the ingest rate-limits until the limit expires, and delivers the others meanwhile", async () => {
  const tunnel = await startSpoolingTunnel(ingest.dsn);
  try {
    ingest.fake.response.status = 503;
    const transaction = datedEnvelope(ingest.dsn, "limited-transaction", "transaction");
    const error = datedEnvelope(ingest.dsn, "unlimited-error", "event");
    const later = datedEnvelope(ingest.dsn, "limited-later", "transaction");
    for (const body of [transaction, error, later]) expect((await post(tunnel.port, body)).status).toBe(200);
    ingest.fake.reset();
    ingest.fake.queued.push({ status: 429, headers: { "x-sentry-rate-limits": "1:transaction:organization:quota" } });
    const limitedAt = Date.now();
    await until(() => arrivals("unlimited-error").length === 1);
    // While the limit holds, neither transaction goes again.
    expect(arrivals("limited-transaction")).toHaveLength(1);
    expect(arrivals("limited-later")).toHaveLength(0);
    // Once it expires both go, in either order: each is its own replay.
    await until(() => arrivals("limited-later").length === 1 && arrivals("limited-transaction").length === 2, 5_000);
    expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(900);
    expect(withoutSentAt(arrivals("limited-later")[0]?.body as Buffer)).toBe(withoutSentAt(later));
    await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0);
  } finally {
    await tunnel.close();
  }
});

it("drops envelopes the ingest answers 400, 403 or 413 to and counts the drops", async () => {
  const tunnel = await startSpoolingTunnel(ingest.dsn);
  try {
    ingest.fake.response.status = 502;
    for (const tag of ["bad-400", "bad-403", "bad-413", "good-200"]) expect((await post(tunnel.port, datedEnvelope(ingest.dsn, tag))).status).toBe(200);
    ingest.fake.reset();
    ingest.fake.queued.push({ status: 400 }, { status: 403 }, { status: 413 });
    await until(() => arrivals("good-200").length === 1);
    // Empty, the spool has nothing left to send again: each arrival count is final.
    await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0);
    for (const tag of ["bad-400", "bad-403", "bad-413"]) expect(arrivals(tag)).toHaveLength(1);
    const warnings = tunnel.log.filter((line) => line.msg.includes("refused an envelope"));
    expect(warnings.map((line) => (line.obj as { status: number }).status)).toEqual([400, 403, 413]);
    expect(tunnel.counts.dropped).toEqual({ rejected: 3 });
    expect(tunnel.counts.spooled).toBe(4);
    expect(tunnel.counts.replayed).toMatchObject({ "400": 1, "403": 1, "413": 1, "200": 1 });
  } finally {
    await tunnel.close();
  }
});
