import { gzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { until } from "../harness";
import { datedEnvelope, sharedFakeIngest, tunnelOverSpool } from "./spool-harness";

const ingest = sharedFakeIngest();

const arrivals = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(`"message":"${tag}"`));

it("drops, unsent and counted, envelopes whose DSN was removed from the allow list after they were spooled, plain or compressed", async () => {
  const removed = `http://gone@127.0.0.1:${ingest.fake.port}/43`;
  const bodies = [datedEnvelope(removed, "removed-plain"), datedEnvelope(ingest.dsn, "still-allowed")];
  const tunnel = await tunnelOverSpool(ingest, bodies, {
    prepare: (store) =>
      store.insert(
        [
          {
            receivedAt: Date.now(),
            upstream: { origin: ingest.fake.origin, path: "/api/43/envelope/" },
            headers: { "content-type": "text/plain", "content-encoding": "gzip" },
            categories: ["error"],
            body: gzipSync(datedEnvelope(removed, "removed-gzip")),
          },
        ],
        1 << 30,
      ),
  });
  try {
    await until(() => tunnel.store.stats().envelopes === 0, 3_000);
    expect(arrivals("still-allowed")).toHaveLength(1);
    expect(ingest.fake.requests.filter((r) => r.url.includes("/43/"))).toEqual([]);
    expect(tunnel.counts.dropped).toEqual({ dsn_not_allowed: 2 });
    expect(tunnel.log.filter((line) => line.msg.includes("no longer allowed"))).toHaveLength(2);
    expect(JSON.stringify(tunnel.log)).not.toContain("gone@");
  } finally {
    await tunnel.close();
  }
});
