import { Writable } from "node:stream";
import { createElement, Suspense, use } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamDocument } from "#src/server/render/stream-document";

afterEach(() => {
  vi.useRealTimers();
});

/** A destination that keeps what React writes. */
function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

const options = (onError = vi.fn()) => ({
  nonce: "n",
  bootstrapScriptContent: "",
  bootstrapModules: [],
  waitForAll: false,
  timeoutMs: 10_000,
  onError,
});

function Never() {
  return use(new Promise<string>(() => {}));
}

describe("streamDocument", () => {
  it("clears its render timeout once the response has finished", async () => {
    // Only the timeout's own timer is faked: React schedules its work with setImmediate.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const render = await streamDocument(createElement("p", null, "done"), options());
    expect(vi.getTimerCount()).toBe(1);
    const { stream, text } = sink();
    render.pipe(stream);
    await new Promise((resolve) => stream.once("finish", resolve));
    expect(text()).toContain("<p>done</p>");
    render.close(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops a render nobody wants any more, and reports no error for it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const onError = vi.fn();
    const element = createElement(Suspense, { fallback: createElement("p", null, "wait") }, createElement(Never));
    const render = await streamDocument(element, options(onError));
    const { stream, text } = sink();
    render.pipe(stream);
    render.close(false);
    await new Promise((resolve) => stream.once("finish", resolve));
    expect(text()).toContain("wait");
    expect(vi.getTimerCount()).toBe(0);
    expect(onError).not.toHaveBeenCalled();
  });
});
