import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../../../src/server/tunnel/spool/backoff";
import { envelopeCategories } from "../../../../src/server/tunnel/spool/categories";
import { Circuit } from "../../../../src/server/tunnel/spool/circuit";
import { UpstreamRateLimits } from "../../../../src/server/tunnel/spool/rate-limits";
import { withSentAtMovedForward } from "../../../../src/server/tunnel/spool/sent-at";

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

describe("envelopeCategories", () => {
  const envelope = '{"dsn":"x"}\n{"type":"event"}\n{"a":1}\n{"type":"attachment","length":5}\n12\n45\n{"type":"client_report"}\n{}\n';

  it("reads item types, skipping payloads by length, plain or compressed", () => {
    expect(envelopeCategories(Buffer.from(envelope), "identity")).toEqual(["error", "attachment", "internal"]);
    expect(envelopeCategories(gzipSync(envelope), "gzip")).toEqual(["error", "attachment", "internal"]);
  });

  it("is * when the envelope cannot be read", () => {
    expect(envelopeCategories(Buffer.from("not gzip"), "gzip")).toEqual(["*"]);
    expect(envelopeCategories(Buffer.from('{"dsn":"x"}\nnot json\n'), "identity")).toEqual(["*"]);
  });
});

describe("Circuit", () => {
  it("opens after the threshold, lets one probe through after the backoff, and closes on its success", () => {
    let now = 0;
    const states: string[] = [];
    const circuit = new Circuit(2, { baseMs: 100, capMs: 100 }, (state) => states.push(state), () => now);
    circuit.failed();
    expect(circuit.tryUpstream()).toBe(true);
    circuit.failed();
    expect(circuit.state).toBe("open");
    expect(circuit.tryUpstream()).toBe(false);
    now = 100;
    expect(circuit.tryUpstream()).toBe(true);
    expect(circuit.tryUpstream()).toBe(false);
    circuit.failed();
    expect(circuit.state).toBe("open");
    now = 200;
    expect(circuit.tryUpstream()).toBe(true);
    circuit.succeeded();
    expect(states).toEqual(["open", "half_open", "open", "half_open", "closed"]);
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
    const limits = new UpstreamRateLimits(() => now);
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
    const limits = new UpstreamRateLimits(() => 0);
    limits.update(upstream, { statusCode: 503, headers: { "retry-after": "5" } });
    expect(limits.heldUntil(upstream, ["error"])).toBe(5_000);
    limits.update(other, { statusCode: 429, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
    limits.update(other, { statusCode: 200, headers: {} });
    expect(limits.heldUntil(other, ["session"])).toBe(60_000);
  });
});
