import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Context } from "koa";
import { describe, expect, it } from "vitest";
import { pipeResponse } from "#src/server/http/stream-response";

/** One real request whose response is handed to `handle`; resolves once the server side closes. */
async function withResponse(handle: (res: ServerResponse) => void, destroyFirst: boolean): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => {
    const server = createServer((_req, res) => {
      res.once("close", () => server.close(() => resolve()));
      if (destroyFirst) res.destroy();
      handle(res);
    });
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      request({ port, host: "127.0.0.1" }, (response) => response.resume())
        .on("error", () => {})
        .end();
    });
    server.on("error", reject);
  });
  await closed;
}

describe("pipeResponse", () => {
  it("does not write to a response whose client is already gone, and says so", async () => {
    const calls: string[] = [];
    await withResponse((res) => {
      pipeResponse(
        { res } as unknown as Context,
        () => calls.push("piped"),
        (finished) => calls.push(`closed, finished: ${finished}`),
      );
    }, true);
    expect(calls).toEqual(["closed, finished: false"]);
  });

  it("hands a live response to the writer and says when it has finished", async () => {
    const calls: string[] = [];
    await withResponse((res) => {
      pipeResponse(
        { res } as unknown as Context,
        (target) => {
          calls.push("piped");
          target.end("done");
        },
        (finished) => calls.push(`closed, finished: ${finished}`),
      );
    }, false);
    expect(calls).toEqual(["piped", "closed, finished: true"]);
  });
});
