import { describe, expect, it } from "vitest";
import { EnvelopeScrubber, type ScrubDrop } from "#src/server/tunnel/scrub/envelope-scrubber";
import { scrubString } from "#src/server/tunnel/scrub/rules";
import { envelopeOf, item } from "./scrub-harness";

const DSN = "http://abc123@127.0.0.1:9/42";
const CHUNK = 64 * 1024;

function scrubberWithDrops() {
  const drops: ScrubDrop[] = [];
  const scrubber = new EnvelopeScrubber({ ips: false }, { header: () => {}, scrubbed: () => {}, dropped: (drop) => void drops.push(drop) });
  return { scrubber, drops };
}

const chunksOf = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

describe("EnvelopeScrubber: memory bounded by the item", () => {
  it("passes a large attachment on as each chunk arrives, never more than the chunk at a time", () => {
    const { scrubber } = scrubberWithDrops();
    const body = envelopeOf(DSN, [item({ type: "attachment" }, Buffer.alloc(5 * 1024 * 1024, 1))]);
    let out = 0;
    for (const chunk of chunksOf(body, CHUNK)) {
      const pieces = scrubber.push(chunk);
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(CHUNK);
      out += pieces.reduce((sum, piece) => sum + piece.length, 0);
      // Everything pushed so far is out, but for a header line still being read.
      expect(out).toBeGreaterThan(0);
    }
    out += scrubber.end().reduce((sum, piece) => sum + piece.length, 0);
    expect(out).toBe(body.length);
  });

  it("stops holding an event once it passes 1 MiB, and drops it at its end", () => {
    const { scrubber, drops } = scrubberWithDrops();
    const body = envelopeOf(DSN, [item({ type: "event" }, { blob: "x".repeat(3 * 1024 * 1024) }), item({ type: "session" }, { sid: "1" })]);
    const out = chunksOf(body, CHUNK).flatMap((chunk) => scrubber.push(chunk));
    out.push(...scrubber.end());
    expect(Buffer.concat(out).toString()).toBe(`${JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn: DSN })}\n{"type":"session","length":11}\n{"sid":"1"}\n`);
    expect(drops).toEqual([{ reason: "invalid", category: "error", quantity: 1 }]);
  });

  it("reads items however the body is split, one byte at a time included", () => {
    const body = envelopeOf(DSN, [item({ type: "event" }, { extra: { secret: "s" } }), item({ type: "attachment" }, "a\nb"), item({ type: "session" }, "{}", false)]);
    const whole = (size: number) => {
      const { scrubber } = scrubberWithDrops();
      return Buffer.concat([...chunksOf(body, size).flatMap((chunk) => scrubber.push(chunk)), ...scrubber.end()]).toString();
    };
    const expected = whole(body.length);
    expect(expected).toContain('{"extra":{"secret":"[Filtered]"}}');
    expect(whole(1)).toBe(expected);
    expect(whole(7)).toBe(expected);
  });
});

describe("string rules", () => {
  it("replaces only Luhn-valid card numbers, and addresses only when asked", () => {
    const counts = {};
    expect(scrubString("4242424242424242 / 4242424242424241 / 5555-5555-5555-4444", false, counts)).toBe("[Filtered] / 4242424242424241 / [Filtered]");
    expect(scrubString("at 10.1.2.3, [2001:db8::1]:80, v1.2.3.4.5, 10:30:00", true, counts)).toBe("at [ip], [[ip]]:80, v1.2.3.4.5, 10:30:00");
    expect(scrubString("at 10.1.2.3", false, counts)).toBe("at 10.1.2.3");
    expect(scrubString("postgres://u:p@h/db and //x:y@z", false, counts)).toBe("postgres://[Filtered]@h/db and //[Filtered]@z");
  });
});
