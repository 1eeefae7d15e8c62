import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../support/fake-ingest";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

let ingest: FakeIngest;
let server: ServerProcess;

beforeAll(async () => {
  ingest = await startFakeIngest();
  server = await startServerProcess({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` });
});
afterAll(async () => {
  await server?.stop("SIGKILL");
  await ingest?.close();
});

it("lets an envelope still uploading when SIGTERM arrives finish, then exits 0", async () => {
  const header = `{"dsn":"http://publickey@127.0.0.1:${ingest.port}/42"}\n`;
  const rest = `{"type":"event"}\n{"message":"sent after SIGTERM"}\n`;
  const { port } = new URL(server.url);
  const upload = request({ host: "127.0.0.1", port, method: "POST", path: "/monitoring?p=42" });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    upload.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    upload.on("error", reject);
  });
  upload.write(header);
  await ingest.waitFor(() => ingest.requests.length === 1, 5_000);

  const exited = server.stop("SIGTERM");
  await server.waitForLogs((lines) => lines.some((line) => line.msg === "shutting down: draining in-flight requests"));
  // Draining: no longer ready for new work, but the upload in progress goes on.
  upload.end(rest);

  expect(await answered).toEqual({ status: 200, body: '{"id":"fake"}' });
  expect(ingest.requests[0]?.body.toString()).toBe(header + rest);
  expect(await exited).toBe(0);
});
