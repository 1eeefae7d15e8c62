import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Context } from "koa";
import { describe, expect, it } from "vitest";
import { pipeResponse } from "#src/server/http/stream-response";

/**
 * One real request whose response is handed to `handle`; resolves once the server side closes
 * and the client has its answer (or none, when the server destroyed it), with the status it got.
 */
async function withResponse(handle: (res: ServerResponse) => void, destroyFirst: boolean, method = "GET"): Promise<number | undefined> {
  let status: number | undefined;
  const closed = new Promise<void>((resolve, reject) => {
    const server = createServer((_req, res) => {
      res.once("close", () => server.close(() => resolve()));
      if (destroyFirst) res.destroy();
      handle(res);
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      answered = new Promise<void>((done) => {
        request({ port, host: "127.0.0.1", method }, (response) => {
          status = response.statusCode;
          response.resume().once("end", done);
        })
          .on("error", () => done())
          .end();
      });
    });
  });
  let answered: Promise<void> = Promise.resolve();
  await closed;
  await answered;
  return status;
}

describe("pipeResponse", () => {
  it("does not write to a response whose client is already gone, and says so", async () => {
    const calls: string[] = [];
    await withResponse((res) => {
      pipeResponse(
        { res, req: { method: "GET" } } as unknown as Context,
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
        { res, req: { method: "GET" } } as unknown as Context,
        (target) => {
          calls.push("piped");
          target.end("done");
        },
        (finished) => calls.push(`closed, finished: ${finished}`),
      );
    }, false);
    expect(calls).toEqual(["piped", "closed, finished: true"]);
  });

  it("answers a HEAD with the status and headers alone, and stops the writer's source as for a visitor who left", async () => {
    const calls: string[] = [];
    const status = await withResponse(
      (res) => {
        res.statusCode = 201;
        pipeResponse(
          { res, req: { method: "HEAD" } } as unknown as Context,
          () => calls.push("piped"),
          (finished) => calls.push(`closed, finished: ${finished}`),
        );
      },
      false,
      "HEAD",
    );
    expect(status).toBe(201);
    expect(calls).toEqual(["closed, finished: false"]);
  });
});
