import { describe, expect, it } from "vitest";
import type { RouterEnvironment } from "#src/client/navigation/core/environment";
import { readPageData } from "#src/client/navigation/core/stream-route-data";
import { DEFERRED_GLOBAL } from "#src/shared/deferred/deferred-data";
import { encodeLines } from "#src/server/render/deferred/deferred-lines";

// The document's deferred values, read through the router's environment (no browser globals):
// lines pushed before the decoder loaded, lines pushed after, and the end of parsing.
describe("readPageData", () => {
  it("reads the lines the document's scripts pushed, early and late, from the environment's window", async () => {
    let settle: (value: string) => void = () => {};
    const slow = new Promise<string>((resolve) => {
      settle = resolve;
    });
    const lines = await encodeLines({ fast: 1, slow, early: Promise.resolve("early") }, () => {}, 5_000);
    const later: string[] = [];
    const ended = new Promise<void>((resolve) => lines.follow((line) => later.push(line), resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const listeners = new Map<string, () => void>();
    const early = [...later];
    expect(early).toHaveLength(1);
    const window = { [DEFERRED_GLOBAL]: early } as RouterEnvironment["window"];
    const document = { readyState: "loading", addEventListener: (type: string, listener: () => void) => listeners.set(type, listener) };
    const data = await readPageData(lines.first, { window, document } as unknown as Pick<RouterEnvironment, "window" | "document">);
    expect(data.fast).toBe(1);
    await expect(data.early).resolves.toBe("early");
    settle("slow");
    await ended;
    const pushed = window[DEFERRED_GLOBAL];
    if (Array.isArray(pushed) || !pushed) throw new Error("the decoder did not take over the global");
    for (const line of later.slice(1)) pushed.push(line);
    listeners.get("DOMContentLoaded")?.();
    await expect(data.slow).resolves.toBe("slow");
  });
});
