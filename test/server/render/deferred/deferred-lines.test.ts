import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { encodeLines } from "#src/server/render/deferred/deferred-lines";
import { DeferredError, decodeDeferred } from "#src/shared/deferred/deferred-data";
import { until } from "../../../support/raw-http";

/** What the browser's decoder makes of the lines. */
async function decoded(lines: string[]): Promise<unknown> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of lines) controller.enqueue(new TextEncoder().encode(`${line}\n`));
      controller.close();
    },
  });
  return (await decode(stream, { plugins: [decodeDeferred] })).value;
}

/** Every later line, once the encoding has ended. */
function rest(lines: Awaited<ReturnType<typeof encodeLines>>): Promise<string[]> {
  return new Promise((resolve) => {
    const all: string[] = [];
    lines.follow(
      (line) => all.push(line),
      () => resolve(all),
    );
  });
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe("encodeLines", () => {
  it("sends what JSON would for what turbo-stream cannot encode: a class instance's fields, no function", async () => {
    const lines = await encodeLines({ point: new Point(1, 2), run: () => 1, later: Promise.resolve(new Point(3, 4)) }, () => {}, 5_000);
    const value = (await decoded([lines.first, ...(await rest(lines))])) as { point: unknown; run: unknown; later: Promise<unknown> };
    expect(value.point).toEqual({ x: 1, y: 2 });
    expect(value.run).toBeUndefined();
    expect(await value.later).toEqual({ x: 3, y: 4 });
  });

  it("turns any rejection into a DeferredError that carries no server text", async () => {
    const failing = Promise.reject(new Error("secret database detail"));
    const lines = await encodeLines({ failing }, () => {}, 5_000);
    const all = await rest(lines);
    expect(all.join("\n")).not.toContain("secret");
    const value = (await decoded([lines.first, ...all])) as { failing: Promise<unknown> };
    const error = await value.failing.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DeferredError);
    expect((error as DeferredError).routeError).toEqual({});
  });

  it("stop() abandons the values still pending: no line for them, and the end is told once", async () => {
    const lines = await encodeLines({ never: new Promise(() => {}), soon: new Promise((resolve) => setTimeout(resolve, 20, "soon value")) }, () => {}, 5_000);
    const seen: string[] = [];
    let ends = 0;
    lines.follow(
      (line) => seen.push(line),
      () => ends++,
    );
    await until(() => seen.length === 1);
    lines.stop();
    lines.stop();
    // What stop() sets off (the encoder's abort, its last line, the reader) runs on promises only: one turn lets it all settle.
    await new Promise(setImmediate);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("soon value");
    expect(ends).toBe(1);
  });

  it("tells the end at once to a follower that comes after the time limit stopped the lines (a page rendered whole)", async () => {
    const lines = await encodeLines({ never: new Promise(() => {}) }, () => {}, 20);
    await new Promise((resolve) => setTimeout(resolve, 40));
    let ends = 0;
    lines.follow(
      () => {},
      () => ends++,
    );
    await new Promise(setImmediate);
    expect(ends).toBe(1);
  });
});

describe("encodeLines, for a value nested too deeply for the stack", () => {
  const deep = () => {
    let value: unknown = [];
    for (let level = 0; level < 20_000; level++) value = [value];
    return value;
  };
  const named = /^Cannot encode the page's deferred data: a value nested too deeply \(Maximum call stack size exceeded\)$/;

  it("in the awaited part: rejects with an error naming it", async () => {
    const error = await encodeLines({ deep: deep() }, () => {}, 5_000).catch((thrown: unknown) => thrown);
    expect((error as Error).name).toBe("UnserialisableValueError");
    expect((error as Error).message).toMatch(named);
  });

  it("in a deferred value: reports an error naming it, and ends", async () => {
    const reported: unknown[] = [];
    const lines = await encodeLines({ later: Promise.resolve(deep()), bigint: 1n }, (error) => reported.push(error), 5_000);
    await rest(lines);
    expect(reported.map((error) => (error as Error).message)).toEqual([expect.stringMatching(named)]);
  });
});
