import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { loadAppRoutes } from "../../support/app-routes";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { startTestApp, type TestApp } from "../../support/test-app";

// A value the server cannot write as JSON is the app's bug: a 500, reported once, whose message
// names the value and where it is, never a bare "Maximum call stack size exceeded".
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
}
function cyclic(): unknown {
  const user: Record<string, unknown> = { name: "Ada" };
  user.self = { owner: user };
  return { user };
}
const VALUES: Record<string, () => unknown> = {
  bigint: () => ({ user: { id: 12n } }),
  cycle: cyclic,
  deep: () => ({ tree: nested(20_000) }),
};
/** Why each cannot be written, the loader's value sitting under `path` nested `levels` deep in what is written. */
const reason = (kind: string, path = "$", levels = 0) =>
  ({
    bigint: `a BigInt at ${path}.user.id`,
    cycle: `a cycle: ${path}.user.self.owner is ${path}.user again`,
    deep: `a value nested ${20_001 + levels} levels deep`,
  })[kind];
const kindOf = (url: URL) => url.searchParams.get("value") ?? "bigint";

const files: Record<string, LoadedRouteFile> = {
  "u/answer.server.ts": { server: { load: ({ url }) => VALUES[kindOf(url)]?.() } },
  "u/page.tsx": { module: { default: () => null }, server: { load: ({ url }) => VALUES[kindOf(url)]?.() } },
};
const routes = await loadAppRoutes({ routes: [route("u/answer", "u/answer.server.ts"), route("u/page", "u/page.tsx")], files });

const reporting = recordingMonitoring();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes, monitoring: reporting.monitoring });
});
afterAll(() => app.close());

async function expectReported(path: string, message: string, headers: Record<string, string> = {}): Promise<Response> {
  const before = reporting.errors.length;
  const response = await fetch(`${app.url}${path}`, { headers });
  await response.arrayBuffer();
  expect(response.status).toBe(500);
  const reported = reporting.errors.slice(before) as Error[];
  expect(reported.map((error) => [error.name, error.message])).toEqual([["UnserialisableValueError", message]]);
  return response;
}

describe("values JSON cannot carry", () => {
  for (const kind of Object.keys(VALUES)) {
    it(`${kind}: a resource route's answer is a 500 naming it`, async () => {
      const response = await expectReported(`/u/answer?value=${kind}`, `Cannot serialise the answer as JSON: ${reason(kind)}`);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    });

    it(`${kind}: a page's data is a 500 naming it`, async () => {
      await expectReported(`/u/page?value=${kind}`, `Cannot serialise the page's data as JSON: ${reason(kind, '$.data["u/page"]', 2)}`);
    });

    it(`${kind}: a navigation's data request is a 500 naming it`, async () => {
      await expectReported(`/__data/u/page?value=${kind}`, `Cannot serialise the answer as JSON: ${reason(kind, '$.state.data["u/page"]', 3)}`, {
        [BUILD_HEADER]: app.deps.assets.manifest.buildId,
      });
    });
  }
});
