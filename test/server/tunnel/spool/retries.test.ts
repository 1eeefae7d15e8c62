import { describe, expect, it } from "vitest";
import type { FakeResponse } from "../../../support/fake-ingest";
import { until } from "../harness";
import { datedEnvelope, sharedFakeIngest, tunnelOverSpool } from "./spool-harness";

const ingest = sharedFakeIngest();

const arrivals = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(`"message":"${tag}"`));
const retryWarnings = (log: { msg: string; obj: object }[]) => log.filter((line) => line.msg.includes("retrying this envelope later"));

const POISON_ANSWERS: { name: string; answer: Partial<FakeResponse>; label: string }[] = [
  { name: "answers 500 to", answer: { status: 500, body: "internal error" }, label: "500" },
  { name: "never answers", answer: { hang: true }, label: "timeout" },
];

describe.each(POISON_ANSWERS)("an envelope the ingest $name while it takes the others", ({ answer, label }) => {
  it("goes on its own growing backoff while the envelopes behind it are delivered at once, and stays spooled", async () => {
    ingest.fake.answerFor = (body) => (body.includes('"message":"poison"') ? answer : undefined);
    const behind = ["behind-1", "behind-2", "behind-3"];
    const tunnel = await tunnelOverSpool(ingest, ["poison", ...behind].map((tag) => datedEnvelope(ingest.dsn, tag)), { spool: { retryBackoff: { baseMs: 100, capMs: 60_000 } } });
    try {
      await until(() => behind.every((tag) => arrivals(tag).length === 1), 5_000);
      await until(() => tunnel.store.after(0, 10)[0]?.attempts === 5, 10_000);
      const [poison, ...rest] = tunnel.store.after(0, 10);
      expect(rest).toEqual([]);
      expect(poison?.nextAttemptAt).toBeGreaterThan(Date.now());

      // Each wait is at least half its exponential step (100 ms doubling): 50, 100, 200, 400 ms.
      const starts = arrivals("poison").map((r) => r.firstByteAt as number);
      const waits = starts.slice(1).map((start, i) => start - (starts[i] as number));
      expect(waits.length).toBeGreaterThanOrEqual(4);
      for (const [attempt, wait] of waits.slice(0, 4).entries()) expect(wait).toBeGreaterThanOrEqual(50 * 2 ** attempt - 5);

      const warnings = retryWarnings(tunnel.log);
      expect(warnings.slice(0, 5).map((line) => line.obj)).toEqual(
        [1, 2, 3, 4, 5].map((attempts) => expect.objectContaining({ id: poison?.id, answer: label, attempts })),
      );
      expect(JSON.stringify(tunnel.log)).not.toContain("poison");
      expect(tunnel.counts.dropped).toEqual({});
      expect(tunnel.counts.circuit).not.toContain("open");

      ingest.fake.answerFor = undefined;
      await until(() => tunnel.store.stats().envelopes === 0, 5_000);
      for (const tag of behind) expect(arrivals(tag)).toHaveLength(1);
    } finally {
      await tunnel.close();
    }
  });
});

it("counts no attempts for an outage, undoing those counted before the circuit opened, and delivers oldest first once the ingest is back", async () => {
  ingest.fake.response.status = 503;
  const tags = ["down-1", "down-2", "down-3"];
  const tunnel = await tunnelOverSpool(ingest, tags.map((tag) => datedEnvelope(ingest.dsn, tag)));
  try {
    // Three failures open the circuit; probes follow.
    await until(() => ingest.fake.requests.filter((r) => r.complete).length >= 6, 5_000);
    expect(tunnel.counts.circuit).toContain("open");
    expect(tunnel.store.after(0, 10).map(({ attempts, nextAttemptAt }) => ({ attempts, nextAttemptAt }))).toEqual(
      tags.map(() => ({ attempts: 0, nextAttemptAt: 0 })),
    );

    ingest.fake.reset();
    await until(() => tunnel.store.stats().envelopes === 0, 5_000);
    expect(ingest.fake.requests.map((r) => tags.findIndex((tag) => r.body.includes(`"message":"${tag}"`)))).toEqual([0, 1, 2]);
  } finally {
    await tunnel.close();
  }
});
