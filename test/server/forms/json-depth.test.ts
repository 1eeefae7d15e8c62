import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "#src/server/config/env.server";
import { createTunnel } from "#src/server/tunnel";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { open, send, until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// JSON a client sends is refused past BODY_MAX_DEPTH levels when it is parsed, so nothing that
// later writes it (the echo's answer, a session) can run out of stack.
const reporting = recordingMonitoring();
const DSN = "https://public@o1.ingest.sentry.io/1";
const tunnel = createTunnel({ path: "/monitoring", allowedDsns: [DSN], maxBytes: 65_536, rateLimitPerMinute: 0, connectTimeoutMs: 1000, headersTimeoutMs: 1000 });
let app: TestApp;
let small: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" }, { monitoring: reporting.monitoring, tunnel });
  small = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", BODY_MAX_DEPTH: "3" }, { monitoring: reporting.monitoring });
});
afterAll(async () => {
  await app.close();
  await small.close();
  await tunnel.close();
});

const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
/** `type` null sends no Content-Type. */
const echo = (target: TestApp, body: string | Buffer[], type: string | null = "application/json") =>
  send(Number(new URL(target.url).port), "/diagnostics/api/echo", {
    headers: type === null ? {} : { "content-type": type },
    body: typeof body === "string" ? Buffer.from(body) : body,
  });

function expectRefused(response: Awaited<ReturnType<typeof echo>>, limit: number): void {
  expect(response.status).toBe(400);
  expect(response.text()).toBe(`JSON nested more than ${limit} levels deep\n`);
}

describe("JSON nesting depth (BODY_MAX_DEPTH)", () => {
  it("4,500 nested arrays are 400 naming the limit: no error logged, nothing reported", async () => {
    const errors = reporting.errors.length;
    expectRefused(await echo(app, arrays(4_500)), 64);
    expect(reporting.errors.length).toBe(errors);
    expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
    expect(app.logs.find((line) => line.msg === "request body refused")).toMatchObject({ status: 400, reason: "JSON nested more than 64 levels deep" });
  });

  it("holds for a page's action too, posted as a document or by <Form> as a data request", async () => {
    const port = Number(new URL(app.url).port);
    const build = app.deps.assets.manifest.buildId;
    for (const [path, headers] of [
      ["/diagnostics/session", {}],
      ["/__data/diagnostics/session", { "X-Outpost-Build": build }],
    ] as const) {
      const response = await send(port, path, { headers: { "content-type": "application/json", ...headers }, body: Buffer.from(arrays(4_500)) });
      expectRefused(response, 64);
    }
  });

  it("arrays and objects count alike: the limit passes, one more is refused", async () => {
    for (const nested of [arrays, objects]) {
      const at = await echo(app, nested(64));
      expect(at.status).toBe(200);
      expect((at.json() as { body?: unknown }).body).toEqual(JSON.parse(nested(64)));
      expectRefused(await echo(app, nested(65)), 64);
    }
  });

  it("a mix of arrays and objects, deep in one branch of a wide value, is found", async () => {
    const wide = Array.from({ length: 2_000 }, (_, i) => ({ i, tags: ["a", "b"] }));
    const body = JSON.stringify({ wide, deep: JSON.parse(`[{"x":${arrays(61)}}]`) });
    expect((await echo(app, body)).status).toBe(200);
    expectRefused(await echo(app, JSON.stringify({ wide, deep: JSON.parse(`[{"x":${arrays(62)}}]`) })), 64);
  });

  it("brackets inside strings are text, not nesting", async () => {
    const text = `${"[{".repeat(5_000)}"\\"]]`;
    const response = await echo(app, JSON.stringify({ text }));
    expect(response.status).toBe(200);
    expect((response.json() as { body?: unknown }).body).toEqual({ text });
  });

  it("is read from BODY_MAX_DEPTH", async () => {
    expect((await echo(small, objects(3))).status).toBe(200);
    expectRefused(await echo(small, objects(4)), 3);
    expectRefused(await echo(small, '{"a":[{"b":[]}]}'), 3);
  });

  it("holds whatever the charset parameter says and when the body is chunked", async () => {
    expectRefused(await echo(app, arrays(500), "application/json; charset=latin1"), 64);
    expectRefused(await echo(app, arrays(500), "Application/JSON;charset=UTF-8"), 64);
    expectRefused(await echo(app, [Buffer.from("[".repeat(300)), Buffer.from("]".repeat(300))]), 64);
  });

  it("a client that leaves halfway through a deep body is no error and no report", async () => {
    const errors = reporting.errors.length;
    const requests = app.logs.filter((line) => line.msg === "request").length;
    const request = open(Number(new URL(app.url).port), "/diagnostics/api/echo", { headers: { "content-type": "application/json" } });
    request.on("error", () => {});
    request.write("[".repeat(3_000));
    // bytesWritten counts bytes still queued on a connecting socket: leaving then would mean the
    // server never saw a request. Wait until they are all handed to the kernel.
    await until(() => {
      const socket = request.socket;
      return socket !== null && !socket.connecting && socket.writableLength === 0 && socket.bytesWritten > 3_000;
    });
    request.destroy();
    await until(() => app.logs.filter((line) => line.msg === "request").length > requests);
    expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
    expect(reporting.errors.length).toBe(errors);
  });

  it("other JSON types and a missing type are 415, not parsed", async () => {
    for (const type of ["application/vnd.api+json", "text/json", null]) {
      const response = await echo(app, arrays(4_500), type);
      expect(response.status).toBe(415);
      expect(response.text()).toMatch(/^Content-Type must be/);
    }
  });

  it("a deeply nested form field stays a flat key (qs nests five levels at most)", async () => {
    const response = await echo(app, `${"a".concat("[b]".repeat(2_000))}=1`, "application/x-www-form-urlencoded");
    expect(response.status).toBe(200);
  });

  it("the tunnel reads a deeply nested envelope header without recursing: a 400, not a 500", async () => {
    const port = Number(new URL(app.url).port);
    const errors = reporting.errors.length;
    const post = (body: string) => send(port, "/monitoring?o=1&p=1", { headers: { "content-type": "text/plain" }, body: Buffer.from(body) });
    const deepHeader = await post(`${arrays(30_000)}\n{"type":"event"}\n{}`);
    expect(deepHeader.status).toBe(400);
    expect(deepHeader.json().detail).toBe("envelope header is not a JSON object");
    const deepDsn = await post(`{"dsn":${arrays(30_000)}}\n{"type":"event"}\n{}`);
    expect(deepDsn.status).toBe(400);
    expect(deepDsn.json().detail).toBe("envelope header has no dsn");
    expect(reporting.errors.length).toBe(errors);
  });

  it("is validated at start: a positive whole number up to 1000", () => {
    for (const value of ["0", "-1", "2.5", "1001", "deep"]) {
      expect(() => loadEnv({ BODY_MAX_DEPTH: value })).toThrow(EnvError);
      expect(() => loadEnv({ BODY_MAX_DEPTH: value })).toThrow(/BODY_MAX_DEPTH/);
    }
    expect(loadEnv({}).BODY_MAX_DEPTH).toBe(64);
    expect(loadEnv({ BODY_MAX_DEPTH: "1000" }).BODY_MAX_DEPTH).toBe(1000);
  });
});
