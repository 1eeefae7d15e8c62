import { describe, expect, it } from "vitest";
import { compareEventIds, nextEventId, parseEventId } from "#src/server/events/event-id";

describe("event ids", () => {
  it("order by milliseconds then sequence, as numbers; anything else is no id", () => {
    expect(compareEventIds("10-2", "9-9")).toBeGreaterThan(0);
    expect(compareEventIds("10-2", "10-10")).toBeLessThan(0);
    expect(parseEventId("abc")).toBeUndefined();
    expect(parseEventId("1-2-3")).toBeUndefined();
    expect(nextEventId("100-4", 50)).toBe("100-5");
    expect(nextEventId("100-4", 200)).toBe("200-0");
  });
});
