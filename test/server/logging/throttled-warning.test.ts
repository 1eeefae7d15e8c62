import { describe, expect, it } from "vitest";
import { throttledWarning } from "#src/server/logging/throttled-warning";

describe("throttledWarning", () => {
  it("writes one line per interval, the next one saying how many were held back", () => {
    const lines: Array<{ fields: unknown; message: string }> = [];
    let now = 1_000;
    const warn = throttledWarning({ warn: (fields: unknown, message: string) => lines.push({ fields, message }) } as never, "store unreachable", 10_000, () => now);
    warn({ route: "/a" });
    now += 5_000;
    warn({ route: "/b" });
    warn({ route: "/c" });
    expect(lines).toEqual([{ fields: { route: "/a" }, message: "store unreachable" }]);
    now += 5_000;
    warn({ route: "/d" });
    expect(lines.at(-1)).toEqual({ fields: { route: "/d", heldBack: 2 }, message: "store unreachable" });
    now += 10_000;
    warn({ route: "/e" });
    expect(lines.at(-1)).toEqual({ fields: { route: "/e" }, message: "store unreachable" });
    expect(lines).toHaveLength(3);
  });
});
