import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { startTestApp, type TestApp } from "../../support/test-app";

// A redirect's Location: encoded the same on a full load and on a client navigation's data request.
const reporting = recordingMonitoring();
let app: TestApp;
let build: string;

beforeAll(async () => {
  app = await startTestApp({}, { monitoring: reporting.monitoring });
  build = app.deps.assets.manifest.buildId;
});
afterAll(() => app.close());

const page = (to: string) => fetch(`${app.url}/test/redirect?to=${encodeURIComponent(to)}`, { redirect: "manual" });
async function dataLocation(to: string): Promise<unknown> {
  const response = await fetch(`${app.url}/__data/test/redirect?to=${encodeURIComponent(to)}`, { headers: { [BUILD_HEADER]: build } });
  return ((await response.json()) as { location?: unknown }).location;
}

describe("redirect() targets", () => {
  const cases: Array<[string, string]> = [
    ["/日本", "/%E6%97%A5%E6%9C%AC"],
    ["/café?q=thé#é", "/caf%C3%A9?q=th%C3%A9#%C3%A9"],
    ["/a b", "/a%20b"],
    ["/already%20encoded", "/already%20encoded"],
    ["https://example.org/ü", "https://example.org/%C3%BC"],
  ];
  for (const [target, location] of cases) {
    it(`${target} is sent as ${location}, by the document and the data request alike`, async () => {
      const response = await page(target);
      expect(response.status).toBe(307);
      expect(response.headers.get("location")).toBe(location);
      expect(await dataLocation(target)).toBe(location);
    });
  }

  it("a target with CR or LF is a clear error, not a split header", async () => {
    const before = reporting.errors.length;
    const response = await page("/x\r\nSet-Cookie: a=b");
    expect(response.status).toBe(500);
    expect(response.headers.get("set-cookie")).toBeNull();
    const reported = reporting.errors.slice(before) as Error[];
    expect(reported.map((error) => error.message)).toEqual(['redirect target "/x\\r\\nSet-Cookie: a=b" contains a control character']);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`status ${status} is answered as given`, async () => {
      const response = await fetch(`${app.url}/test/redirect?to=/x&status=${status}`, { redirect: "manual" });
      expect(response.status).toBe(status);
      expect(response.headers.get("location")).toBe("/x");
    });
  }

  it("any other status is a RangeError naming it, with no Location sent", async () => {
    for (const status of [200, 404, 500, 99, 1000, 304]) {
      const before = reporting.errors.length;
      const response = await fetch(`${app.url}/test/redirect?to=/x&status=${status}`, { redirect: "manual" });
      expect(response.status).toBe(500);
      expect(response.headers.get("location")).toBeNull();
      const reported = reporting.errors.slice(before) as Error[];
      expect(reported.map((error) => [error.name, error.message])).toEqual([
        ["RangeError", `redirect takes a status of 301, 302, 303, 307 or 308, got ${status}`],
      ]);
    }
  });
});
