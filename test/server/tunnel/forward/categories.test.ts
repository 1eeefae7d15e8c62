import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { envelopeCategories, MAX_DECODED_CATEGORY_BYTES } from "#src/server/tunnel/forward/categories";

describe("envelopeCategories", () => {
  const envelope = '{"dsn":"x"}\n{"type":"event"}\n{"a":1}\n{"type":"attachment","length":5}\n12\n45\n{"type":"client_report"}\n{}\n';

  it("reads item types, skipping payloads by length, plain or compressed", async () => {
    expect(await envelopeCategories(Buffer.from(envelope), "identity")).toEqual(["error", "attachment", "internal"]);
    expect(await envelopeCategories(gzipSync(envelope), "gzip")).toEqual(["error", "attachment", "internal"]);
    expect(await envelopeCategories(brotliCompressSync(envelope), "br")).toEqual(["error", "attachment", "internal"]);
    expect(await envelopeCategories(deflateSync(envelope), "deflate")).toEqual(["error", "attachment", "internal"]);
  });

  it("is * when the envelope cannot be read", async () => {
    expect(await envelopeCategories(Buffer.from("not gzip"), "gzip")).toEqual(["*"]);
    expect(await envelopeCategories(Buffer.from('{"dsn":"x"}\nnot json\n'), "identity")).toEqual(["*"]);
  });

  it("decodes a compressed envelope off the event loop, and stops at a bound: one whose items lie past it is *", async () => {
    const payload = 4 * MAX_DECODED_CATEGORY_BYTES;
    const far = Buffer.concat([Buffer.from(`{"dsn":"x"}\n{"type":"event","length":${payload}}\n`), Buffer.alloc(payload), Buffer.from('\n{"type":"attachment"}\n{}\n')]);
    const bomb = brotliCompressSync(far);
    expect(bomb.length).toBeLessThan(1024);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    expect(await envelopeCategories(bomb, "br")).toEqual(["*"]);
    // The event loop turned while it decoded: the work was not one synchronous block.
    expect(turned).toBe(true);
    expect(await envelopeCategories(gzipSync(far), "gzip")).toEqual(["*"]);
  });
});
