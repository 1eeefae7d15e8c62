import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoredAnswer, writeStored } from "#src/server/page-cache/stored-page";
import { nonceByteOffsets } from "#src/server/page-cache/stored-text";

// An answer's first write goes out as text, its later ones from its bytes: both must put the
// fresh nonce at the same places, whatever the text holds and whatever slots it came with.

const RENDERED = "rendered-nonce-24-chars-";
const PAGE_TEXT = "page-text-nonce-24-chars";
const body = [
  `<!doctype html><title>Crème brûlée 🍮</title><script nonce="${RENDERED}">1</script>`,
  `<p>日本語 and a lone \ud800 surrogate</p><p nonce="${PAGE_TEXT}">a comment</p>`,
  `<script nonce="${RENDERED}">2</script><p>ünïcödé 😀 at the end</p>`,
].join("");
const rendered = nonceByteOffsets(body, RENDERED);
const pageText = Buffer.from(body).indexOf(`nonce="${PAGE_TEXT}"`) + 'nonce="'.length;

function answer(nonceSlots: number[]): StoredAnswer {
  return { kind: "document", status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body, nonceSlots, etag: 'W/"x"', storedAt: 0 };
}

const FRESH = "<fresh-nonce-written-in>";
// Each path's body, its fresh nonce shown as FRESH.
async function twoWrites(origin: string, path: string): Promise<[string, string]> {
  const read = async () => {
    const response = await fetch(`${origin}${path}`);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] as string;
    expect(nonce).toHaveLength(FRESH.length);
    return (await response.text()).replaceAll(nonce, FRESH);
  };
  return [await read(), await read()];
}

describe("a stored answer written as text, then from its bytes", () => {
  const stored = {
    rendered: answer(rendered),
    // A page-text nonce, a slot inside a character, past the end, not a number, out of order, overlapping.
    tampered: answer([pageText, (rendered[0] as number) + 3, body.length * 4, Number.NaN, ...[...rendered].reverse(), (rendered[1] as number) + 1]),
  };
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    const app = new Koa();
    app.use((ctx) => writeStored(ctx, stored[ctx.path.slice(1) as keyof typeof stored], undefined, "outpost; hit"));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("records the renderer's nonces as UTF-8 byte offsets, past multi-byte characters", () => {
    const bytes = Buffer.from(body);
    expect(rendered).toHaveLength(2);
    for (const slot of rendered) expect(bytes.toString("utf8", slot, slot + RENDERED.length)).toBe(RENDERED);
  });

  it("puts the fresh nonce at the renderer's slots only, the same way both times", async () => {
    const [text, bytes] = await twoWrites(origin, "/rendered");
    // As sent: UTF-8, the lone surrogate as U+FFFD.
    const sent = Buffer.from(body).toString("utf8").replaceAll(RENDERED, FRESH);
    expect(text).toBe(sent);
    expect(bytes).toBe(sent);
  });

  it("leaves slots that are not whole nonce values alone, the same way both times", async () => {
    const [text, bytes] = await twoWrites(origin, "/tampered");
    expect(text).toBe(bytes);
    // The renderer's slots (given out of order and twice) take it; so does one at a well-formed attribute.
    expect(text.split(FRESH)).toHaveLength(4);
  });
});
