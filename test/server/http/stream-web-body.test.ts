import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Context } from "koa";
import { afterEach, describe, expect, it } from "vitest";
import { streamWebBody } from "#src/server/http/stream-response";

const encoder = new TextEncoder();
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering every GET with `body` through streamWebBody; resolves with its origin and each response's close. */
async function serve(body: () => ReadableStream<Uint8Array>): Promise<{ origin: string; closed: Promise<ServerResponse> }> {
  let closed!: (res: ServerResponse) => void;
  const closedPromise = new Promise<ServerResponse>((resolve) => {
    closed = resolve;
  });
  server = createServer((req, res) => {
    res.once("close", () => closed(res));
    streamWebBody({ req, res } as unknown as Context, body());
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed: closedPromise };
}

function request(origin: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(origin, resolve).on("error", reject));
}

async function text(response: IncomingMessage): Promise<{ body: string; aborted: boolean }> {
  let body = "";
  response.setEncoding("utf8");
  return new Promise((resolve) => {
    response.on("data", (chunk: string) => {
      body += chunk;
    });
    response.once("end", () => resolve({ body, aborted: false }));
    response.once("error", () => resolve({ body, aborted: true }));
  });
}

describe("streamWebBody", () => {
  it("sends the body's chunks in order, then ends the response", async () => {
    const { origin, closed } = await serve(
      () =>
        new ReadableStream({
          start(controller) {
            for (const part of ["one ", "two ", "three"]) controller.enqueue(encoder.encode(part));
            controller.close();
          },
        }),
    );
    expect(await text(await request(origin))).toEqual({ body: "one two three", aborted: false });
    expect((await closed).writableFinished).toBe(true);
  });

  it("cuts the client's response when the body fails mid-stream", async () => {
    let source!: ReadableStreamDefaultController<Uint8Array>;
    const { origin, closed } = await serve(
      () =>
        new ReadableStream({
          start(controller) {
            source = controller;
            controller.enqueue(encoder.encode("partial"));
          },
        }),
    );
    const response = await request(origin);
    const answer = text(response);
    await new Promise((resolve) => response.once("data", resolve));
    source.error(new Error("source failed"));
    expect(await answer).toEqual({ body: "partial", aborted: true });
    expect((await closed).writableFinished).toBe(false);
  });

  it("cancels the body once the client leaves", async () => {
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const { origin } = await serve(
      () =>
        new ReadableStream({
          start(controller) {
            controller.enqueue(encoder.encode("first"));
          },
          cancel: () => cancelled(),
        }),
    );
    const response = await request(origin);
    await new Promise((resolve) => response.once("data", resolve));
    response.destroy();
    await cancel;
  });

  it("answers a HEAD without reading the body, and cancels it", async () => {
    let pulled = false;
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const { origin } = await serve(
      () =>
        new ReadableStream(
          {
            pull() {
              pulled = true;
            },
            cancel: () => cancelled(),
          },
          { highWaterMark: 0 },
        ),
    );
    const response = await new Promise<IncomingMessage>((resolve, reject) => get(origin, { method: "HEAD" }, resolve).on("error", reject));
    expect(response.statusCode).toBe(200);
    await cancel;
    expect(pulled).toBe(false);
  });
});
