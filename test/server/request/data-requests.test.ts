import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestRecord } from "#src/server/http/request-log";
import { createMetrics } from "#src/server/metrics";
import { BUILD_HEADER, type DataAnswer } from "#src/shared/routing/data-request";
import { until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A client navigation's data request: GET /__data<path>, carrying the build id.
let app: TestApp;
let build: string;
const records: RequestRecord[] = [];
const metrics = createMetrics();
const named: string[] = [];

beforeAll(async () => {
  app = await startTestApp(
    { ENABLE_DIAGNOSTIC_ROUTES: "true" },
    {
      observeRequest: (record) => {
        records.push(record);
        metrics.observeRequest(record.method, record.route, record.status, record.durationMs / 1000);
      },
      monitoring: {
        forRequest: () => ({
          nameRoute: (method, route) => named.push(`${method} ${route}`),
          captureError: () => "0123456789abcdef0123456789abcdef",
          traceMeta: () => ({}),
        }),
        captureFeedback: () => "0123456789abcdef0123456789abcdef",
      },
    },
  );
  build = app.deps.assets.manifest.buildId;
});
afterAll(() => app.close());

async function data(path: string, buildId: string | null = build) {
  const before = records.length;
  const response = await fetch(`${app.url}/__data${path}`, { headers: buildId === null ? {} : { [BUILD_HEADER]: buildId } });
  const body = await response.json();
  // The request's record is written once the response has closed.
  await until(() => records.length > before);
  return { response, body: body as DataAnswer & { error?: string } };
}

const lastRecord = () => records.at(-1);

describe("data requests", () => {
  it("answer the matched chain's loader data as JSON, never cached, with the security headers", async () => {
    const { response, body } = await data("/test/items/42?view=full");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(body).toEqual({
      kind: "state",
      build,
      status: 200,
      state: {
        pattern: "/test/items/:id",
        matches: [
          { id: "Layout", params: { id: "42" } },
          { id: "test/item", params: { id: "42" } },
        ],
        data: { "test/item": { id: "42" } },
        // The entry's, then the root layout's (it imports the fixture's styles.css); the item page imports none.
        styles: [...app.deps.assets.manifest.entry.styles, ...(app.deps.assets.manifest.routes.Layout?.styles ?? [])],
      },
    });
  });

  it("log one line and count the request by route pattern, never the raw URL", async () => {
    await data("/test/items/secret-id?token=abc");
    expect(lastRecord()).toMatchObject({ method: "GET", route: "/test/items/:id", status: 200 });
    expect(JSON.stringify(app.logs.at(-1))).not.toContain("secret-id");
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('outpost_http_request_duration_seconds_count{method="GET",route="/test/items/:id",status="200"}');
    expect(exposition).not.toContain("secret-id");
    expect(named.at(-1)).toBe("GET /test/items/:id");
  });

  it("give loaders the page's URL, not the data request's", async () => {
    const { body } = await data("/test/search?q=boats");
    expect(body.kind === "state" && body.state.data["test/search"]).toMatchObject({ query: "boats" });
  });

  it("answer a loader's redirect as data, since fetch would follow a real one", async () => {
    const { response, body } = await data("/diagnostics/redirect");
    expect(response.status).toBe(200);
    expect(body).toEqual({ kind: "redirect", build, status: 307, location: "/" });
    expect(lastRecord()?.route).toBe("/diagnostics/redirect");
  });

  it("answer notFound() and unmatched paths with the not-found page in the root layout, status 404 in the body", async () => {
    for (const path of ["/test/missing-item", "/no/such/page"]) {
      const { response, body } = await data(path);
      // 200 on the wire: browsers log every 4xx/5xx fetch as a console error.
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ kind: "state", status: 404, state: { pattern: "not_found" } });
      expect(body.kind === "state" && body.state.matches.map((match) => match.id)).toEqual(["Layout", "NotFound"]);
      expect(lastRecord()?.route).toBe("not_found");
    }
  });

  it("answer a loader error with the error component that shows it and the reported event's id", async () => {
    const errorsBefore = app.logs.filter((line) => line.level >= 50).length;
    const { body } = await data("/diagnostics/server-error");
    expect(body).toMatchObject({
      kind: "state",
      status: 500,
      state: {
        pattern: "/diagnostics/server-error",
        error: { boundaryId: "Layout", error: { eventId: "0123456789abcdef0123456789abcdef" } },
      },
    });
    // No message or stack outside development.
    expect(JSON.stringify(body)).not.toContain("diagnostic server error");
    expect(app.logs.filter((line) => line.level >= 50)).toHaveLength(errorsBefore + 1);
  });

  it("refuse another build's request before any loader runs, so the browser loads the page instead", async () => {
    const { response, body } = await data("/diagnostics/server-error", "0ldbu1ld0000");
    expect(response.status).toBe(409);
    expect(body).toEqual({ error: "build 0ldbu1ld0000 is not the server's build", build });
  });

  it("refuse a request without a build id, and methods other than GET", async () => {
    const { response, body } = await data("/", null);
    expect(response.status).toBe(400);
    expect(body.error).toBe("the X-Outpost-Build header is missing");
    const post = await fetch(`${app.url}/__data/`, { method: "POST", headers: { [BUILD_HEADER]: build } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    await post.body?.cancel();
    // Another method: Allow says what this page's data URL takes, POST only where there is an action.
    for (const [path, allow] of [
      ["/", "GET, HEAD"],
      ["/diagnostics/form", "GET, HEAD, POST"],
    ]) {
      const put = await fetch(`${app.url}/__data${path}`, { method: "PUT", headers: { [BUILD_HEADER]: build } });
      expect(put.status, path).toBe(405);
      expect(put.headers.get("allow"), path).toBe(allow);
      await put.body?.cancel();
    }
  });

  it("serve diagnostic routes only where the server does", async () => {
    const plain = await startTestApp();
    try {
      const response = await fetch(`${plain.url}/__data/diagnostics`, { headers: { [BUILD_HEADER]: build } });
      expect(await response.json()).toMatchObject({ status: 404, state: { pattern: "not_found" } });
    } finally {
      await plain.close();
    }
  });
});
