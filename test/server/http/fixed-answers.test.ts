import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Koa from "koa";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RequestRecord } from "#src/server/http/request-log";
import { loadPrerendered } from "#src/server/prerender/prerendered-pages";
import { fixtureBuild } from "../../support/builds";
import { until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/diagnostics/prerendered";

/** The whole answer to one request line, as bytes on the wire. */
function exchange(port: number, method: string, target: string, headers = `Host: 127.0.0.1:${port}\r\n`): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${method} ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

/** An answer with what differs on every response (the date, the nonce) made alike. */
const comparable = (answer: string) =>
  answer
    .replace(/\r\nDate: [^\r]+/, "")
    .replaceAll(/'nonce-[^']+'/g, "'nonce-N'")
    .replaceAll(/nonce="[^"]+"/g, 'nonce="N"');

describe("answers written before Koa", () => {
  let app: TestApp;
  let port: number;
  const records: RequestRecord[] = [];
  const contexts = vi.spyOn(Koa.prototype, "createContext");

  beforeAll(async () => {
    app = await startTestApp(
      { ENABLE_DIAGNOSTIC_ROUTES: "true" },
      { prerendered: loadPrerendered(fixtureBuild()), observeRequest: (record) => records.push(record) },
    );
    port = Number(new URL(app.url).port);
  });
  afterEach(() => {
    contexts.mockClear();
    records.length = 0;
    app.deps.readiness.ready = true;
  });
  afterAll(async () => {
    contexts.mockRestore();
    await app.close();
  });

  it("answers the probes without a Koa context, byte for byte as Koa's healthChecks does", async () => {
    const fixed: string[] = [];
    for (const [method, path] of [["GET", "/healthz"], ["HEAD", "/healthz"], ["GET", "/readyz"]] as const) fixed.push(await exchange(port, method, path));
    app.deps.readiness.ready = false;
    fixed.push(await exchange(port, "GET", "/readyz"));
    expect(contexts).not.toHaveBeenCalled();
    expect(fixed[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"status":"ok"\}$/);
    expect(fixed[3]).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*\{"status":"draining"\}$/);
    // A query is the same probe, answered by the middleware.
    const throughKoa: string[] = [];
    app.deps.readiness.ready = true;
    for (const [method, path] of [["GET", "/healthz?q"], ["HEAD", "/healthz?q"], ["GET", "/readyz?q"]] as const) throughKoa.push(await exchange(port, method, path));
    app.deps.readiness.ready = false;
    throughKoa.push(await exchange(port, "GET", "/readyz?q"));
    expect(contexts).toHaveBeenCalledTimes(4);
    expect(fixed.map(comparable)).toEqual(throughKoa.map(comparable));
    await until(() => records.length === 8);
    expect(records.slice(0, 4).map(({ route, status }) => `${route} ${status}`)).toEqual(["/healthz 200", "/healthz 200", "/readyz 200", "/readyz 503"]);
    expect(records.slice(0, 4)).toEqual(records.slice(4).map((record) => ({ ...record, durationMs: expect.any(Number) })));
  });

  it("answers a prerendered page's own path without a Koa context, byte for byte as the page handler does", async () => {
    const fixed = [await exchange(port, "GET", PAGE), await exchange(port, "HEAD", PAGE)];
    expect(contexts).not.toHaveBeenCalled();
    expect(fixed[0]).toContain("Cache-Status: outpost; hit; detail=prerendered");
    const nonce = /'nonce-([^']+)'/.exec(fixed[0] as string)?.[1];
    expect(fixed[0]).toContain(`nonce="${nonce}"`);
    // The absolute form of the same target is left to Koa, whose page handler answers it from the build.
    const absolute = `http://127.0.0.1:${port}${PAGE}`;
    const throughKoa = [await exchange(port, "GET", absolute), await exchange(port, "HEAD", absolute)];
    expect(contexts).toHaveBeenCalledTimes(2);
    expect(fixed.map(comparable)).toEqual(throughKoa.map(comparable));
    await until(() => records.length === 4);
    expect(records.map(({ method, route, status }) => `${method} ${route} ${status}`)).toEqual([
      `GET ${PAGE} 200`,
      `HEAD ${PAGE} 200`,
      `GET ${PAGE} 200`,
      `HEAD ${PAGE} 200`,
    ]);
  });

  it("survives clients that reset the connection as their fixed answer is written: each is logged, nothing fails, the next is answered", async () => {
    const loggedBefore = app.logs.length;
    const resets = Array.from({ length: 100 }, (_, i) => {
      const target = i % 2 === 0 ? PAGE : "/healthz";
      return new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          // A TCP reset rather than a close, before or while the answer arrives.
          setImmediate(() => socket.resetAndDestroy());
        });
        socket.on("error", () => {});
        socket.on("close", () => resolve());
      });
    });
    await Promise.all(resets);
    // Every request the server read is logged with a status, as any other.
    await until(() => records.length > 0 && records.every((record) => record.status === 200));
    expect(records.length).toBeLessThanOrEqual(100);
    expect(app.logs.slice(loggedBefore).filter((line) => line.level >= 50)).toEqual([]);
    expect(comparable(await exchange(port, "GET", PAGE))).toContain("HTTP/1.1 200 OK");
    expect(contexts).not.toHaveBeenCalled();
  });

  it("leaves to Koa a prerendered page's request it would answer otherwise: a bad Host, a conditional one", async () => {
    const badHost = await exchange(port, "GET", PAGE, "Host: a/b\r\n");
    expect(badHost).toMatch(/^HTTP\/1\.1 400 /);
    const etag = /\r\nETag: ([^\r]+)/.exec(await exchange(port, "GET", PAGE))?.[1];
    const revalidated = await exchange(port, "GET", PAGE, `Host: 127.0.0.1\r\nIf-None-Match: ${etag}\r\n`);
    expect(revalidated).toMatch(/^HTTP\/1\.1 304 /);
    expect(contexts).toHaveBeenCalledTimes(2);
  });
});

describe("a prerendered page a public file hides", () => {
  let app: TestApp | undefined;
  let publicDir: string;
  afterAll(async () => {
    await app?.close();
    rmSync(publicDir, { recursive: true, force: true });
  });

  it("answers the public file, as the middleware ahead of the pages does", async () => {
    // Allowed with a warning: the file hides one value of /static/:slug, a page the build prerendered.
    publicDir = mkdtempSync(path.join(tmpdir(), "outpost-public-"));
    mkdirSync(path.join(publicDir, "static"));
    writeFileSync(path.join(publicDir, "static", "first"), "the public file\n");
    app = await startTestApp({}, { publicDir, prerendered: loadPrerendered(fixtureBuild()) });
    const answer = await exchange(Number(new URL(app.url).port), "GET", "/static/first");
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\n\r\nthe public file\n$/);
  });
});
