import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoredAnswer, TEXT_WRITE_MAX, writeStored } from "#src/server/page-cache/stored-page";
import { nonceByteOffsets, textWithNonce } from "#src/server/page-cache/stored-text";

// A small answer goes out as text, a large one from its bytes: both must put the fresh nonce at
// the same places, whatever the text holds and whatever slots it came with.

const RENDERED = "rendered-nonce-24-chars-";
const PAGE_TEXT = "page-text-nonce-24-chars";
const FRESH = "<fresh-nonce-written-in>";
const small = [
  `<!doctype html><title>Crème brûlée 🍮</title><script nonce="${RENDERED}">1</script>`,
  `<p>日本語 and a lone \ud800 surrogate</p><p nonce="${PAGE_TEXT}">a comment</p>`,
  `<script nonce="${RENDERED}">2</script><p>ünïcödé 😀 at the end</p>`,
].join("");
// The same text past TEXT_WRITE_MAX, so writeStored sends it from bytes.
const large = `${small}<p>${"x".repeat(TEXT_WRITE_MAX)}</p>`;
const rendered = nonceByteOffsets(small, RENDERED);
const pageText = Buffer.from(small).indexOf(`nonce="${PAGE_TEXT}"`) + 'nonce="'.length;
const slots = {
  rendered,
  // A page-text nonce, a slot inside a character, past the end, not a number, out of order, twice, off by one.
  tampered: [pageText, (rendered[0] as number) + 3, large.length * 4, Number.NaN, ...[...rendered].reverse(), (rendered[1] as number) + 1],
};

/** As a browser gets it: UTF-8 (a lone surrogate becomes U+FFFD). */
const sent = (text: string) => Buffer.from(text).toString("utf8");

describe("a stored answer written as text, and from its bytes", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    const app = new Koa();
    app.use((ctx) => {
      const nonceSlots = slots[ctx.path.slice(1) as keyof typeof slots];
      const stored: StoredAnswer = { kind: "document", status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: large, nonceSlots, etag: 'W/"x"', storedAt: 0 };
      writeStored(ctx, stored, undefined, "outpost; hit");
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The large answer as writeStored sends it (from bytes), its fresh nonce shown as FRESH, without the filler. */
  async function fromBytes(name: keyof typeof slots): Promise<string> {
    const response = await fetch(`${origin}/${name}`);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] as string;
    expect(nonce).toHaveLength(FRESH.length);
    const text = (await response.text()).replaceAll(nonce, FRESH);
    return text.slice(0, text.length - large.length + small.length);
  }

  it("records the renderer's nonces as UTF-8 byte offsets, past multi-byte characters", () => {
    const bytes = Buffer.from(small);
    expect(rendered).toHaveLength(2);
    for (const slot of rendered) expect(bytes.toString("utf8", slot, slot + RENDERED.length)).toBe(RENDERED);
  });

  it("puts the fresh nonce at the renderer's slots only, the same way both ways", async () => {
    const expected = sent(small.replaceAll(RENDERED, FRESH));
    expect(sent(textWithNonce(small, rendered, FRESH))).toBe(expected);
    expect(await fromBytes("rendered")).toBe(expected);
  });

  it("leaves slots that are not whole nonce values alone, the same way both ways", async () => {
    const text = sent(textWithNonce(small, slots.tampered, FRESH));
    expect(await fromBytes("tampered")).toBe(text);
    // The renderer's slots (given out of order and twice) take it; so does one at a well-formed attribute.
    expect(text.split(FRESH)).toHaveLength(4);
  });
});
