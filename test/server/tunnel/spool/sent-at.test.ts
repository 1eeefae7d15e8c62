import { describe, expect, it } from "vitest";
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
