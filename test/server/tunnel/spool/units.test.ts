import { describe, expect, it } from "vitest";
import { backoffDelay } from "#src/server/tunnel/spool/backoff";
import { Circuit } from "#src/server/tunnel/spool/circuit";
import { UpstreamRateLimits } from "#src/server/tunnel/spool/rate-limits";
import { withSentAtMovedForward } from "#src/server/tunnel/spool/sent-at";

describe("withSentAtMovedForward", () => {
  it("moves only the header's sent_at, leaving every other byte as it was", () => {
    const body = Buffer.from('{"event_id":"x", "sent_at" : "2024-01-01T00:00:00.000Z","trace":{"a":1}}\n{"type":"event"}\n{"sent_at":"keep"}');
    const moved = withSentAtMovedForward(body, 90_000).toString();
    expect(moved).toBe('{"event_id":"x", "sent_at" : "2024-01-01T00:01:30.000Z","trace":{"a":1}}\n{"type":"event"}\n{"sent_at":"keep"}');
  });

  it("ignores a sent_at nested in another value, and leaves envelopes without one alone", () => {
    const nested = Buffer.from('{"trace":{"sent_at":"2024-01-01T00:00:00Z"},"sent_at":"2024-01-01T00:00:00Z"}\n');
    expect(withSentAtMovedForward(nested, 1_000).toString()).toBe('{"trace":{"sent_at":"2024-01-01T00:00:00Z"},"sent_at":"2024-01-01T00:00:01.000Z"}\n');
    const none = Buffer.from('{"dsn":"x"}\n{}');
    expect(withSentAtMovedForward(none, 1_000)).toBe(none);
    const broken = Buffer.from('{"sent_at":"2024-01-01T00:00:00Z"\n');
    expect(withSentAtMovedForward(broken, 1_000)).toBe(broken);
  });
});

describe("withSentAtMovedForward with odd headers", () => {
  it("never throws: a sent_at that cannot move (the largest date or just before it, or not a date) leaves the body as stored", () => {
    for (const sentAt of ["+275760-09-13T00:00:00.000Z", "+275760-09-12T23:59:30.000Z", "not a date", ""]) {
      const body = Buffer.from(`{"sent_at":"${sentAt}"}\n{"type":"event"}\n{}`);
      expect(withSentAtMovedForward(body, 60_000)).toBe(body);
    }
  });

  it("moves the top-level sent_at, not a nested one with the same value written after it", () => {
    const body = Buffer.from('{"sent_at":"2024-01-01T00:00:00Z","trace":{"sent_at":"2024-01-01T00:00:00Z"}}\n');
    expect(withSentAtMovedForward(body, 1_000).toString()).toBe('{"sent_at":"2024-01-01T00:00:01.000Z","trace":{"sent_at":"2024-01-01T00:00:00Z"}}\n');
  });

  it("keeps every other byte as sent, an invalid UTF-8 byte in the header included", () => {
    const body = Buffer.concat([Buffer.from('{"user":"'), Buffer.from([0xff, 0xc3]), Buffer.from('","sent_at":"2024-01-01T00:00:00Z"}\n{"type":"event"}\n'), Buffer.from([0xfe])]);
    const expected = Buffer.concat([Buffer.from('{"user":"'), Buffer.from([0xff, 0xc3]), Buffer.from('","sent_at":"2024-01-01T00:00:01.000Z"}\n{"type":"event"}\n'), Buffer.from([0xfe])]);
    expect(withSentAtMovedForward(body, 1_000).equals(expected)).toBe(true);
  });

  it("leaves alone a sent_at spelled with escapes, a duplicate key whose last value is no string, and a header that is no object", () => {
    for (const header of ['{"sent_at":"2024-01-01T00:00:00\\u005a"}', '{"sent_at":"2024-01-01T00:00:00Z","sent_at":5}', '["sent_at","2024-01-01T00:00:00Z"]']) {
      const body = Buffer.from(`${header}\n{}`);
      expect(withSentAtMovedForward(body, 1_000)).toBe(body);
    }
  });
});

describe("Circuit", () => {
  it("opens after the threshold, lets one probe through after the backoff, and closes on its success", () => {
    let now = 0;
    const states: string[] = [];
    const circuit = new Circuit(2, { baseMs: 100, capMs: 100 }, (state) => states.push(state), () => now);
    circuit.failed();
    expect(circuit.tryUpstream()).toBe("closed");
    circuit.failed();
    expect(circuit.state).toBe("open");
    expect(circuit.tryUpstream()).toBe(undefined);
    now = 100;
    expect(circuit.tryUpstream()).toBe("probe");
    expect(circuit.tryUpstream()).toBe(undefined);
    circuit.failed();
    expect(circuit.state).toBe("open");
    now = 200;
    expect(circuit.tryUpstream()).toBe("probe");
    circuit.succeeded();
    expect(states).toEqual(["open", "half_open", "open", "half_open", "closed"]);
  });

  it("is reopened by its probe ending without a verdict, not by a request let through before it opened", () => {
    let now = 0;
    const circuit = new Circuit(1, { baseMs: 100, capMs: 100 }, undefined, () => now);
    const early = circuit.tryUpstream();
    circuit.failed();
    now = 100;
    const probe = circuit.tryUpstream();
    expect([early, probe]).toEqual(["closed", "probe"]);
    // The early request's client went away while the probe is in flight: no second probe.
    circuit.abandoned(early);
    expect(circuit.state).toBe("half_open");
    expect(circuit.tryUpstream()).toBe(undefined);
    circuit.abandoned(probe);
    expect(circuit.state).toBe("open");
    expect(circuit.tryUpstream()).toBe("probe");
  });

  it("backs off exponentially with jitter, capped", () => {
    const backoff = { baseMs: 500, capMs: 10_000 };
    expect(backoffDelay(backoff, 0, () => 0)).toBe(250);
    expect(backoffDelay(backoff, 0, () => 1)).toBe(500);
    expect(backoffDelay(backoff, 3, () => 1)).toBe(4_000);
    expect(backoffDelay(backoff, 50, () => 1)).toBe(10_000);
  });
});

describe("UpstreamRateLimits", () => {
  const upstream = { origin: "https://o1.ingest.sentry.io", path: "/api/42/envelope/" };
  const other = { origin: "https://o1.ingest.sentry.io", path: "/api/43/envelope/" };

  it("holds the limited categories of one project only, until the limit expires", () => {
    let now = 1_000;
    const limits = new UpstreamRateLimits(60_000, () => now);
    limits.update(upstream, { statusCode: 429, headers: { "x-sentry-rate-limits": "60:transaction;replay:organization, 10::project" } });
    expect(limits.heldUntil(upstream, ["transaction"])).toBe(61_000);
    expect(limits.heldUntil(upstream, ["error"])).toBe(11_000);
    expect(limits.heldUntil(other, ["error"])).toBe(0);
    now = 20_000;
    expect(limits.heldUntil(upstream, ["error"])).toBe(0);
    expect(limits.heldUntil(upstream, ["error", "replay"])).toBe(61_000);
    expect(limits.heldUntil(upstream, ["*"])).toBe(61_000);
  });

  it("reads Retry-After, and a bare 429 as 60 seconds for everything", () => {
    const limits = new UpstreamRateLimits(60_000, () => 0);
    limits.update(upstream, { statusCode: 503, headers: { "retry-after": "5" } });
    expect(limits.heldUntil(upstream, ["error"])).toBe(5_000);
    limits.update(other, { statusCode: 429, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
    limits.update(other, { statusCode: 200, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
  });
});
