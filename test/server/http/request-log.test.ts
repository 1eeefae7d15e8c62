import { request } from "node:http";
import type { Middleware } from "koa";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestRecord } from "#src/server/http/request-log";
import { until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";
import { testRoutes } from "../../support/test-routes";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A test app whose request records are collected, with an extra middleware in front of the pages. */
async function start(extra?: Middleware) {
  const records: RequestRecord[] = [];
  app = await startTestApp({}, {
    routes: testRoutes,
    observeRequest: (record) => records.push(record),
    extraMiddleware: extra ? [extra] : [],
  });
  return records;
}

describe("the request log", () => {
  it("records the status that was sent when a middleware throws (Koa's 500)", async () => {
    const records = await start((ctx, next) => {
      if (ctx.path === "/boom") throw new Error("boom");
      return next();
    });
    const response = await fetch(`${app?.url}/boom`);
    expect(response.status).toBe(500);
    await response.text();
    await until(() => records.length === 1);
    expect(records).toEqual([expect.objectContaining({ method: "GET", status: 500, route: "unmatched" })]);
    const line = app?.logs.find((l) => l.msg === "request");
    expect(line).toMatchObject({ status: 500 });
  });

  it("times a streamed document to its last byte, not to its first", async () => {
    const records = await start();
    const response = await fetch(`${app?.url}/test/late`);
    expect(await response.text()).toContain("late content");
    await until(() => records.length === 1);
    // The suspended part resolves 400 ms after the shell was sent.
    expect(records[0]).toMatchObject({ route: "/test/late", status: 200 });
    expect(records[0]?.durationMs).toBeGreaterThanOrEqual(350);
    expect(records[0]?.aborted).toBeUndefined();
  });

  it("marks a request whose client left before the end as aborted", async () => {
    const records = await start();
    const url = new URL(`${app?.url}/test/hang`);
    await new Promise<void>((resolve, reject) => {
      const req = request(url, (response) => {
        response.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
      req.once("error", reject);
      req.end();
    });
    await until(() => records.length === 1);
    expect(records).toEqual([expect.objectContaining({ route: "/test/hang", status: 200, aborted: true })]);
  });

  it("records 499, not Koa's default 404 or a status set too late, when the client left before any header", async () => {
    let answerLate = () => {};
    const records = await start(async (ctx, next) => {
      if (ctx.path !== "/slow") return next();
      // Still working when the client leaves, then answers into the closed socket.
      await new Promise<void>((resolve) => {
        answerLate = resolve;
      });
      ctx.body = "too late";
    });
    await new Promise<void>((resolve) => {
      const req = request(new URL(`${app?.url}/slow`));
      req.on("error", () => resolve());
      req.end(() => setTimeout(() => req.destroy(), 100));
    });
    await until(() => records.length === 1);
    answerLate();
    expect(records).toEqual([expect.objectContaining({ method: "GET", route: "unmatched", status: 499, aborted: true })]);
  });
});
