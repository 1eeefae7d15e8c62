import { describe, expect, it } from "vitest";
import { type ServerSentEvent, sseParser } from "#src/shared/events/sse-parser";

function parse(chunks: string[]) {
  const events: ServerSentEvent[] = [];
  const retries: number[] = [];
  const parser = sseParser(
    (event) => events.push(event),
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe("the hook's event-stream parser", () => {
  it("reads ids, named events, multi-line data, retry hints and comments, whatever the chunking", () => {
    const text = "retry: 1500\n:\n\nid: 1-0\ndata: {\"a\":1}\n\nevent: missed\ndata: one\ndata: two\n\nid: 1-1\r\ndata: x\r\n\r\n";
    const whole = parse([text]);
    const split = parse(text.split(""));
    for (const { events, retries } of [whole, split]) {
      expect(retries).toEqual([1500]);
      expect(events).toEqual([
        { type: "message", data: '{"a":1}', lastEventId: "1-0" },
        { type: "missed", data: "one\ntwo", lastEventId: "1-0" },
        { type: "message", data: "x", lastEventId: "1-1" },
      ]);
    }
  });

  it("dispatches nothing for a comment or an event without data", () => {
    expect(parse([":\n\nid: 5-0\n\n"]).events).toEqual([]);
  });
});
