import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A client's malformed Host or forwarded headers: a short 400, never a 500, never reported.
const reporting = recordingMonitoring();
let direct: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  direct = await startTestApp({}, { monitoring: reporting.monitoring });
  proxied = await startTestApp({ TRUST_PROXY: "true" }, { monitoring: reporting.monitoring });
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
});

const portOf = (app: TestApp) => Number(new URL(app.url).port);
const get = (app: TestApp, path: string, headers: Record<string, string>) => send(portOf(app), path, { method: "GET", headers });

describe("a malformed Host header", () => {
  for (const host of ["a b", "[", "x%y", "a:99999", "evil.example/path", "user@evil.example"]) {
    it(`${JSON.stringify(host)} is a 400 naming the header, on pages and data requests alike`, async () => {
      for (const path of ["/", "/test/search?q=1", "/__data/test/search?q=1"]) {
        const response = await get(direct, path, { Host: host, [BUILD_HEADER]: direct.deps.assets.manifest.buildId });
        expect(response.status, path).toBe(400);
        expect(response.text()).toBe("Malformed Host header\n");
      }
      expect(reporting.errors).toEqual([]);
    });
  }

  it("each Host is judged on its own, however many others came before (its origin is remembered)", async () => {
    for (let i = 0; i < 100; i++) {
      const response = await get(direct, "/test/search?q=1", { Host: `shop${i}.example` });
      expect(response.text()).toContain(`1 on shop${i}.example`);
    }
    for (const host of ["shop1.example", "a b", "shop99.example", "a b"]) {
      const response = await get(direct, "/test/search?q=1", { Host: host });
      expect(response.status, host).toBe(host === "a b" ? 400 : 200);
    }
  });

  it("a valid one still serves the page, and the loader sees it", async () => {
    const response = await get(direct, "/test/search?q=1", { Host: "shop.example:8080" });
    expect(response.status).toBe(200);
    expect(response.text()).toContain("1 on shop.example:8080");
  });
});

describe("with TRUST_PROXY", () => {
  it("a malformed X-Forwarded-Host is a 400 naming it", async () => {
    for (const host of ["a b", "[", "x%y", "a:99999"]) {
      const response = await get(proxied, "/test/search?q=1", { "X-Forwarded-Host": host });
      expect(response.status, host).toBe(400);
      expect(response.text()).toBe("Malformed X-Forwarded-Host header\n");
    }
    expect(reporting.errors).toEqual([]);
  });

  it("a malformed X-Forwarded-Proto is a 400 naming it", async () => {
    for (const proto of ["ftp", "a b", "javascript"]) {
      const response = await get(proxied, "/test/search?q=1", { "X-Forwarded-Proto": proto });
      expect(response.status, proto).toBe(400);
      expect(response.text()).toBe("Malformed X-Forwarded-Proto header\n");
    }
    expect(reporting.errors).toEqual([]);
  });

  it("valid forwarded headers reach the loader's URL", async () => {
    const response = await get(proxied, "/test/search?q=2", { "X-Forwarded-Host": "shop.example", "X-Forwarded-Proto": "https" });
    expect(response.status).toBe(200);
    expect(response.text()).toContain("2 on shop.example");
  });
});

describe("the request target", () => {
  it("a path starting with // stays a path on this host", async () => {
    const response = await get(direct, "//evil.example/test/search?q=3", { Host: "shop.example" });
    // Not the search page of evil.example: the path //evil.example/test/search matches no route.
    expect(response.status).toBe(404);
    expect(reporting.errors).toEqual([]);
  });

  it("an absolute-form target is read against the Host, not its own authority", async () => {
    const response = await get(direct, "http://evil.example/test/search?q=4", { Host: "shop.example" });
    expect(response.status).toBe(200);
    expect(response.text()).toContain("4 on shop.example");
  });
});
