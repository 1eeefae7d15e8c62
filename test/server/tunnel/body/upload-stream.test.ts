import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { HeldBytes } from "#src/server/tunnel/body/body-copy";
import { ClientBody } from "#src/server/tunnel/body/body-limit";
import { BodyTooLargeError, ClientAbortedError } from "#src/server/tunnel/contract/errors";

// A stand-in for the visitor's request: chunks arrive when the test pushes them.
const clientRequest = () => new Readable({ read() {} });

/** The upload of a body of unknown length: pushed through a stream (see ClientBody.upload). */
async function pushed(body: ClientBody, head: Buffer[], onError: () => void): Promise<Readable> {
  const upload = await body.upload(head, onError);
  expect(upload).toBeInstanceOf(Readable);
  return upload as Readable;
}

/** A pushed upload of a body capped at `maxBytes`, its upstream side flowing. */
async function flowingUpload(maxBytes: number) {
  const request = clientRequest();
  const body = new ClientBody(request, maxBytes);
  const onError = vi.fn();
  const upstream = await pushed(body, [], onError);
  collect(upstream);
  await tick();
  return { request, body, onError, upstream };
}

/** Resolves on 'close' (events.once would reject on the 'error' before it). */
const closed = (stream: Readable) => new Promise((resolve) => stream.once("close", resolve));

function collect(stream: Readable): string[] {
  const seen: string[] = [];
  stream.on("data", (chunk: Buffer) => seen.push(chunk.toString()));
  return seen;
}

describe("ClientBody.read", () => {
  it("takes a body sent in one write with its headers as it is buffered, without the request's iterator", async () => {
    // The handler runs from the 'request' event, before Node's parser has pushed that body.
    const read = new Promise<{ chunk: string | undefined; receivedAll: boolean; iterated: boolean }>((resolve) => {
      const server = createServer((request: IncomingMessage, response) => {
        const iterator = vi.spyOn(request, "iterator");
        const body = new ClientBody(request, 1024, Number(request.headers["content-length"]));
        void body.read().then((chunk) => {
          resolve({ chunk: chunk?.toString(), receivedAll: body.receivedAll, iterated: iterator.mock.calls.length > 0 });
          response.end();
          server.close();
        });
      });
      server.listen(0, "127.0.0.1", () => {
        const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
        socket.end("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
        socket.resume();
      });
    });
    expect(await read).toEqual({ chunk: "hello", receivedAll: true, iterated: false });
  });
});

describe("ClientBody.upload, pushed (unknown or large length)", () => {
  it("passes each chunk on in the tick it arrives and keeps no reference to the peeked ones", async () => {
    // Chunks held across young-generation GCs (an async iterator's pending reads, a peeked
    // array kept for the whole upload) made 200 concurrent uploads grow RSS 1.5× the bare relay's.
    const request = clientRequest();
    const body = new ClientBody(request, 100);
    const head = [Buffer.from("h")];
    const upstream = await pushed(body, head, () => {});
    expect(head).toEqual([]);
    const seen = collect(upstream);
    await tick();
    expect(seen).toEqual(["h"]);
    request.push(Buffer.from("ab"));
    expect(seen).toEqual(["h", "ab"]);
    request.push(null);
    await once(upstream, "end");
    expect(body.bytes).toBe(2);
    expect(body.failure).toBeUndefined();
  });

  it("pauses the request as soon as the upstream side pauses, taking no chunk meanwhile, and resumes it with it", async () => {
    const request = clientRequest();
    const upstream = await pushed(new ClientBody(request, 1 << 20), [], () => {});
    const seen = collect(upstream);
    await tick();
    upstream.pause();
    expect(request.readableFlowing).toBe(false);
    request.push(Buffer.alloc(32 * 1024));
    await tick();
    // Waiting in the request, as it would with undici reading it directly: nothing held in between.
    expect(request.readableLength).toBe(32 * 1024);
    expect(upstream.readableLength).toBe(0);
    upstream.resume();
    await tick();
    expect(request.readableFlowing).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it("keeps going through the upstream side pausing at every chunk, as undici does while its socket is full", async () => {
    const request = clientRequest();
    const upstream = await pushed(new ClientBody(request, 1 << 20), [Buffer.from("h")], () => {});
    let received = 0;
    upstream.on("data", (chunk: Buffer) => {
      received += chunk.length;
      upstream.pause();
      setImmediate(() => upstream.resume());
    });
    for (let i = 0; i < 20; i++) {
      request.push(Buffer.alloc(1024));
      await tick();
    }
    request.push(null);
    await once(upstream, "end");
    expect(received).toBe(1 + 20 * 1024);
  });

  it("destroys the upstream side when the body grows past the cap, leaving the request intact and paused", async () => {
    const { request, body, onError, upstream } = await flowingUpload(3);
    request.push(Buffer.from("abcd"));
    const [error] = await once(upstream, "error");
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(body.failure).toBe("too_large");
    expect(onError).toHaveBeenCalledOnce();
    expect(request.destroyed).toBe(false);
    expect(request.readableFlowing).toBe(false);
  });

  it("destroys the upstream side when the client goes away", async () => {
    const { request, body, onError, upstream } = await flowingUpload(100);
    request.destroy(new Error("aborted"));
    const [error] = await once(upstream, "error");
    expect(error).toBeInstanceOf(ClientAbortedError);
    expect(body.failure).toBe("client_aborted");
    expect(onError).toHaveBeenCalledOnce();
  });

  it("leaves the rest of the body to whole() once the ingest stopped reading", async () => {
    const request = clientRequest();
    const body = new ClientBody(request, 100);
    const head = [Buffer.from("h")];
    body.copy(head, 100, new HeldBytes(100));
    const upstream = await pushed(body, head, () => {});
    const seen = collect(upstream);
    await tick();
    request.push(Buffer.from("a"));
    upstream.destroy();
    request.push(Buffer.from("b"));
    request.push(null);
    expect(seen).toEqual(["h", "a"]);
    expect((await body.whole())?.toString()).toBe("hab");
  });
});

const LARGE = 256 * 1024 + 1;

describe("ClientBody.upload, direct (declared large, not copied)", () => {
  it("hands over the request itself, the peeked chunks back in front, and counts the declared length at its end", async () => {
    const request = clientRequest();
    const body = new ClientBody(request, 1 << 20, LARGE);
    const head = [Buffer.from("h"), Buffer.from("e")];
    expect(await body.upload(head, () => {})).toBe(request);
    expect(head).toEqual([]);
    const seen = collect(request);
    request.push(Buffer.from("ad"));
    request.push(null);
    await once(request, "close");
    expect(seen.join("")).toBe("head");
    expect(body.bytes).toBe(LARGE);
    expect(body.failure).toBeUndefined();
  });

  it("records a client that went away, and hears of it", async () => {
    const request = clientRequest();
    const body = new ClientBody(request, 1 << 20, LARGE);
    const onError = vi.fn();
    await body.upload([], onError);
    request.destroy(new Error("aborted"));
    await closed(request);
    expect(body.failure).toBe("client_aborted");
    expect(onError).toHaveBeenCalledOnce();
  });

  it("leaves to the ingest's error a request undici destroyed while the client is still connected", async () => {
    const request = Object.assign(clientRequest(), { socket: { destroyed: false } });
    const body = new ClientBody(request, 1 << 20, LARGE);
    const onError = vi.fn();
    await body.upload([], onError);
    request.destroy(new Error("other side closed"));
    await closed(request);
    expect(body.failure).toBeUndefined();
    expect(onError).not.toHaveBeenCalled();
  });
});

describe("ClientBody.upload, pulled (declared small)", () => {
  it("pulls bodies declared up to 256 KiB; larger ones go direct, or pushed when copied or of unknown length", async () => {
    const small = new ClientBody(clientRequest(), 1 << 20, 256 * 1024);
    expect(await small.upload([], () => {})).not.toBeInstanceOf(Readable);
    const request = clientRequest();
    expect(await new ClientBody(request, 1 << 20, LARGE).upload([], () => {})).toBe(request);
    const copiedRequest = clientRequest();
    const copied = new ClientBody(copiedRequest, 1 << 20, LARGE);
    copied.copy([], 1 << 20, new HeldBytes(1 << 20));
    const pushedUpload = await copied.upload([], () => {});
    expect(pushedUpload).toBeInstanceOf(Readable);
    expect(pushedUpload).not.toBe(copiedRequest);
    const unknown = clientRequest();
    expect(await new ClientBody(unknown, 1 << 20).upload([], () => {})).not.toBe(unknown);
  });

  it("gives the peeked chunks, then the rest as read, keeping no reference to the peeked ones", async () => {
    const request = clientRequest();
    const body = new ClientBody(request, 100, 3);
    const head = [Buffer.from("h")];
    const upload = (await body.upload(head, () => {})) as AsyncGenerator<Buffer>;
    expect((await upload.next()).value?.toString()).toBe("h");
    expect(head).toEqual([]);
    request.push(Buffer.from("ab"));
    request.push(null);
    const rest: string[] = [];
    for await (const chunk of upload) rest.push(chunk.toString());
    expect(rest).toEqual(["ab"]);
    expect(body.bytes).toBe(2);
  });

  it("ends with the error, after onError, when the body grows past the cap", async () => {
    const request = clientRequest();
    const body = new ClientBody(request, 3, 2);
    const onError = vi.fn();
    const upload = (await body.upload([], onError)) as AsyncGenerator<Buffer>;
    request.push(Buffer.from("abcd"));
    await expect(upload.next()).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(body.failure).toBe("too_large");
    expect(onError).toHaveBeenCalledOnce();
    expect(request.destroyed).toBe(false);
  });
});
