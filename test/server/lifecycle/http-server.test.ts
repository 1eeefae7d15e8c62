import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../support/test-app";

// CONNECT never reaches Koa: the HTTP server answers it itself, and keeps serving.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Writes `request` raw and reads until the server closes the connection. */
function exchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(app.url).port), "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
    });
    socket.once("end", () => resolve(answer));
    socket.once("error", reject);
  });
}

describe("the HTTP server", () => {
  it("answers CONNECT 501 with a reason and closes, where Node would drop the socket without a word", async () => {
    const answer = await exchange("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 501 Not Implemented");
    expect(answer).toContain("\r\nConnection: close\r\n");
    expect(answer.endsWith("\r\n\r\nCONNECT is not served: this server is not a proxy\n")).toBe(true);
  });

  it("keeps serving after a CONNECT whose client resets at once", async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(app.url).port), "127.0.0.1", () => {
        socket.write("CONNECT /feedback HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        socket.resetAndDestroy();
        resolve();
      });
    });
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
  });
});
