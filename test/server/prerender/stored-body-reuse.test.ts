import { type IncomingMessage, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoredAnswer, writeStored } from "../../../src/server/page-cache/stored-page";

// A prerendered page and a cached one are written by writeStored, which reuses the bytes of a
// finished response for the next one: a response still in flight must keep its own nonce.

const STORED_NONCE = "built-nonce-of-24-chars-";
// Far more than the loopback socket's buffers hold, so a paused reader leaves most of it unsent.
const FILLER = "x".repeat(32 * 1024 * 1024);
const body = `<script nonce="${STORED_NONCE}">1</script><p>${FILLER}</p><script nonce="${STORED_NONCE}">2</script>`;
const stored: StoredAnswer = {
  kind: "document",
  status: 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body,
  nonceSlots: [body.indexOf(STORED_NONCE), body.lastIndexOf(STORED_NONCE)],
  etag: 'W/"big"',
  storedAt: 0,
};

const nonceOf = (csp: string | string[] | undefined) => /'nonce-([^']+)'/.exec(String(csp))?.[1];
const scriptNonces = (html: string) => [...html.matchAll(/<script nonce="([^"]*)">/g)].map((found) => found[1]);

function open(port: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get({ port, host: "127.0.0.1", path: "/" }, resolve).on("error", reject));
}

function text(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    response.on("error", reject);
    response.resume();
  });
}

describe("a stored answer's bytes reused across responses", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = new Koa();
    app.use((ctx) => writeStored(ctx, stored, undefined, "outpost; hit"));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("keeps a slow reader's nonce while later responses are written", async () => {
    const slow = await open(port);
    slow.pause();
    const later = [];
    for (let i = 0; i < 3; i++) later.push(await open(port).then(async (response) => ({ csp: response.headers["content-security-policy"], html: await text(response) })));
    const slowHtml = await text(slow);
    const slowNonce = nonceOf(slow.headers["content-security-policy"]);
    expect(slowNonce).toBeTruthy();
    expect(scriptNonces(slowHtml)).toEqual([slowNonce, slowNonce]);
    for (const { csp, html } of later) {
      expect(scriptNonces(html)).toEqual([nonceOf(csp), nonceOf(csp)]);
      expect(nonceOf(csp)).not.toBe(slowNonce);
    }
    expect(slowHtml.length).toBe(stored.body.length - 2 * STORED_NONCE.length + 2 * (slowNonce as string).length);
  }, 30_000);
});
