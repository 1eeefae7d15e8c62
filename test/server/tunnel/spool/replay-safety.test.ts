import { describe, expect, it } from "vitest";
import type { FakeResponse } from "../../../support/fake-ingest";
import type { SpoolStore } from "#src/server/tunnel/spool";
import { until } from "../harness";
import { datedEnvelope, sentAtOf, sharedFakeIngest, tunnelOverSpool } from "./spool-harness";

const ingest = sharedFakeIngest();

const arrivals = (tag: string) => ingest.fake.requests.filter((r) => r.complete && r.body.includes(`"message":"${tag}"`));
// Each retry waits at least 50 ms (half its backoff's base of 100 ms); timers may fire a tick early.
const RETRY_FLOOR_MS = 45;
const gapsBetween = (times: number[]) => times.slice(1).map((time, i) => time - (times[i] as number));
const diskFull = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

describe("an envelope whose sent_at cannot be moved forward", () => {
  it("goes as stored, once, and the envelopes spooled beside it are delivered", async () => {
    const poison = datedEnvelope(ingest.dsn, "far-future", "event", "+275760-09-13T00:00:00.000Z");
    const bodies = [poison, datedEnvelope(ingest.dsn, "beside-1"), datedEnvelope(ingest.dsn, "beside-2")];
    const tunnel = await tunnelOverSpool(ingest, bodies, { entry: { receivedAt: Date.now() - 60_000 } });
    try {
      await until(() => tunnel.store.stats().envelopes === 0, 10_000);
      expect(arrivals("far-future").map((r) => r.body.equals(poison))).toEqual([true]);
      for (const tag of ["beside-1", "beside-2"]) expect(arrivals(tag)).toHaveLength(1);
    } finally {
      await tunnel.close();
    }
  });

  it("with Content-Encoding: identity, is plain: its sent_at moves", async () => {
    const sentAt = "2024-01-01T00:00:00.000Z";
    const tunnel = await tunnelOverSpool(ingest, [datedEnvelope(ingest.dsn, "identity", "event", sentAt)], {
      entry: { receivedAt: Date.now() - 60_000, headers: { "content-type": "text/plain", "content-encoding": "identity" } },
    });
    try {
      await until(() => arrivals("identity").length === 1, 3_000);
      expect(Date.parse(sentAtOf(arrivals("identity")[0]?.body as Buffer)) - Date.parse(sentAt)).toBeGreaterThanOrEqual(60_000);
    } finally {
      await tunnel.close();
    }
  });
});

const UNUSABLE_429S: { name: string; headers: Record<string, string> }[] = [
  { name: "no headers", headers: {} },
  { name: "Retry-After: 0", headers: { "retry-after": "0" } },
  { name: "a Retry-After date in the past", headers: { "retry-after": new Date(Date.now() - 5_000).toUTCString() } },
  { name: "limits on other categories", headers: { "x-sentry-rate-limits": "60:transaction:organization" } },
  { name: "a limit of 0 s on its category", headers: { "x-sentry-rate-limits": "0:error:organization" } },
];

describe.each(UNUSABLE_429S)("a 429 with $name", ({ headers }) => {
  it("holds the envelope 60 s, as Sentry's SDKs do for a bare 429, instead of sending it again at once", async () => {
    ingest.fake.response = { ...ingest.fake.response, status: 429, headers };
    let bodyReads = 0;
    let held = false;
    let scansSinceHeld = 0;
    const tunnel = await tunnelOverSpool(ingest, [datedEnvelope(ingest.dsn, "limited")], {
      prepare: (store) => {
        const [body, reschedule, after] = [store.body.bind(store), store.reschedule.bind(store), store.after.bind(store)];
        store.body = (id) => {
          bodyReads += 1;
          return body(id);
        };
        store.reschedule = (retries) => {
          reschedule(retries);
          held = true;
        };
        store.after = (...args) => {
          if (held) scansSinceHeld += 1;
          return after(...args);
        };
      },
    });
    try {
      // The replay looked at the spool again after writing the hold; a resend would have read the body again (the same step).
      await until(() => scansSinceHeld > 0 || bodyReads > 1, 3_000);
      expect(bodyReads).toBe(1);
      expect(arrivals("limited")).toHaveLength(1);
      const [row] = tunnel.store.after(0, 1);
      expect(row?.attempts).toBe(0);
      expect(row?.nextAttemptAt).toBeGreaterThan(Date.now() + 59_000);
    } finally {
      await tunnel.close();
    }
  });
});

describe("a full disk", () => {
  it("retries the removal of delivered envelopes, never their delivery, and removes them once it has room", async () => {
    const tags = Array.from({ length: 8 }, (_, i) => `full-${i}`);
    const tunnel = await tunnelOverSpool(
      ingest,
      tags.map((tag) => datedEnvelope(ingest.dsn, tag)),
      { spool: { concurrency: 4, retryBackoff: { baseMs: 100, capMs: 200 } } },
    );
    const remove = tunnel.store.remove.bind(tunnel.store);
    const removals: { at: number; ids: number }[] = [];
    tunnel.store.remove = (ids) => {
      removals.push({ at: Date.now(), ids: ids.length });
      throw diskFull();
    };
    try {
      // A removal of all eight comes after each delivery ended and the replay looked again (it does so
      // at once); a second one is the backoff retrying it while the replay had them all before it.
      await until(() => removals.filter((removal) => removal.ids === tags.length).length >= 2, 3_000);
      for (const tag of tags) expect(arrivals(tag)).toHaveLength(1);
      for (const gap of gapsBetween(removals.map((removal) => removal.at))) expect(gap).toBeGreaterThanOrEqual(RETRY_FLOOR_MS);
      expect(tunnel.log.some((line) => line.msg.includes("retrying the removal, not the delivery"))).toBe(true);
      tunnel.store.remove = remove;
      await until(() => tunnel.store.stats().envelopes === 0, 3_000);
      for (const tag of tags) expect(arrivals(tag)).toHaveLength(1);
    } finally {
      await tunnel.close();
    }
  });
});

describe("an error in the replay path", () => {
  it("from reading a body: the envelope waits on its backoff, and goes once the store reads again", async () => {
    const reads: number[] = [];
    let read: SpoolStore["body"] | undefined;
    const tunnel = await tunnelOverSpool(ingest, [datedEnvelope(ingest.dsn, "unreadable")], {
      spool: { retryBackoff: { baseMs: 100, capMs: 200 } },
      prepare: (store) => {
        read = store.body.bind(store);
        store.body = () => {
          reads.push(Date.now());
          throw new Error("disk I/O error");
        };
      },
    });
    try {
      await until(() => reads.length >= 4, 3_000);
      // Each read after a failure waited out its backoff: retries, not a spin.
      for (const gap of gapsBetween(reads)) expect(gap).toBeGreaterThanOrEqual(RETRY_FLOOR_MS);
      tunnel.store.body = read as SpoolStore["body"];
      await until(() => arrivals("unreadable").length === 1, 3_000);
    } finally {
      await tunnel.close();
    }
  });

  it("from scanning the store: replay pauses and goes on, for the life of the process", async () => {
    let scans = 0;
    const tunnel = await tunnelOverSpool(ingest, [datedEnvelope(ingest.dsn, "after-error")], {
      prepare: (store) => {
        const after = store.after.bind(store);
        store.after = (...args) => {
          scans += 1;
          if (scans <= 2) throw new Error("disk I/O error");
          return after(...args);
        };
      },
    });
    try {
      await until(() => arrivals("after-error").length === 1, 5_000);
      expect(tunnel.log.filter((line) => line.msg.includes("replay failed; retrying after a pause"))).toHaveLength(2);
    } finally {
      await tunnel.close();
    }
  });
});

describe("many envelopes the ingest keeps failing, oldest first", () => {
  it("do not hold up the healthy ones behind them: those are all delivered within seconds", async () => {
    const failing: Partial<FakeResponse> = { status: 500, body: "internal error" };
    ingest.fake.answerFor = (body) => (body.includes('"message":"failing-') ? failing : undefined);
    const bodies = [
      ...Array.from({ length: 12 }, (_, i) => datedEnvelope(ingest.dsn, `failing-${i}`)),
      ...Array.from({ length: 100 }, (_, i) => datedEnvelope(ingest.dsn, `healthy-${i}`)),
    ];
    // The production settings: 4 at a time, 0.5 s backoff doubling to 10 s, 1 s per-envelope backoff.
    const tunnel = await tunnelOverSpool(ingest, bodies, {
      spool: { concurrency: 4, backoff: { baseMs: 500, capMs: 10_000 }, retryBackoff: { baseMs: 1_000, capMs: 30 * 60_000 } },
    });
    try {
      await until(() => tunnel.store.stats().envelopes === 12, 8_000);
      for (let i = 0; i < 100; i++) expect(arrivals(`healthy-${i}`)).toHaveLength(1);
    } finally {
      await tunnel.close();
    }
  });
});
