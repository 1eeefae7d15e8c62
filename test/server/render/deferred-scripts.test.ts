import { Writable } from "node:stream";
import { createElement, Suspense, use } from "react";
import { describe, expect, it } from "vitest";
import { encodeLines } from "#src/server/render/deferred/deferred-lines";
import { withDeferredScripts } from "#src/server/render/deferred-scripts";
import { streamDocument } from "#src/server/render/stream-document";

/** A destination recording each write, and when the response ended. */
function sink() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  const ended = new Promise<void>((resolve) => stream.once("finish", resolve));
  return { stream, writes, ended };
}

const options = { nonce: "n0nce", bootstrapScriptContent: "", bootstrapModules: [], waitForAll: false, timeoutMs: 5_000, onError: () => {} };

function Value({ promise }: { promise: Promise<string> }) {
  return createElement("p", { id: "value" }, use(promise));
}

describe("withDeferredScripts", () => {
  it("adds each value's script after the shell, never inside React's markup, and ends after both", async () => {
    const value = new Promise<string>((resolve) => setTimeout(resolve, 30, "settled value"));
    const unused = new Promise<string>((resolve) => setTimeout(resolve, 80, "unused value"));
    const page = createElement("main", null, createElement(Suspense, { fallback: createElement("p", null, "wait") }, createElement(Value, { promise: value })));
    const lines = await encodeLines({ value, unused }, () => {}, 5_000);
    const render = withDeferredScripts(await streamDocument(page, options), lines, "n0nce");
    const { stream, writes, ended } = sink();
    render.pipe(stream);
    await ended;
    render.close(true);
    const scripts = writes.filter((write) => write.includes("__OUTPOST_DEFERRED__"));
    expect(scripts.length).toBe(2);
    // Each script is a write of its own, whole, with the nonce; the first write is React's shell.
    for (const script of scripts) expect(script).toMatch(/^(<script nonce="n0nce">\(self\.__OUTPOST_DEFERRED__\|\|=\[\]\)\.push\("[^<]*"\)<\/script>)+$/);
    expect(writes[0]).toContain("wait");
    expect(writes.indexOf(scripts[0] as string)).toBeGreaterThan(0);
    // The unused value outlives React's render: the response waits for it.
    expect(writes.join("").indexOf("unused value")).toBeGreaterThan(writes.join("").indexOf("settled value"));
  });

  it("ends the response when the time runs out, without the lines of values still pending", async () => {
    const never = new Promise<string>(() => {});
    const lines = await encodeLines({ never }, () => {}, 50);
    const render = withDeferredScripts(await streamDocument(createElement("p", null, "shell"), options), lines, "n0nce");
    const { stream, writes, ended } = sink();
    render.pipe(stream);
    await ended;
    render.close(true);
    expect(writes.join("")).toContain("shell");
    expect(writes.join("")).not.toContain("__OUTPOST_DEFERRED__");
  });
});
