import { Suspense, use } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

// A kept page whose render showed a fallback where a component should be (it threw on the server,
// or never came within RENDER_TIMEOUT_MS) is right for this visitor and wrong for every later one.

const RENDER_TIMEOUT_MS = 400;
const results: PageCacheResult[] = [];
let app: TestApp;

function Throws(): never {
  throw new Error("the widget failed on the server");
}
const never = new Promise<string>(() => {});
function NeverComes() {
  return <p>{use(never)}</p>;
}

const page =
  (Widget: () => React.ReactNode) =>
  ({ data }: { data: { id: string } }) => (
    <>
      <p id="render-id">{data.id}</p>
      <Suspense fallback={<p id="widget-fallback">loading</p>}>
        <Widget />
      </Suspense>
    </>
  );
const server = { cache: { maxAge: 60 }, load: () => ({ id: `${Math.random()}` }) };

const routes = await loadAppRoutes({
  routes: [route("test/widget-throws", "test/widget-throws.tsx"), route("test/widget-never", "test/widget-never.tsx")],
  files: {
    "test/widget-throws.tsx": { module: { default: page(Throws) }, server },
    "test/widget-never.tsx": { module: { default: page(NeverComes) }, server },
  },
});

beforeAll(async () => {
  app = await startTestApp({ RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS) }, { routes, observePageCache: (result) => results.push(result) });
});
afterAll(() => app.close());

const renderId = (html: string) => /<p id="render-id">([^<]+)<\/p>/.exec(html)?.[1];

describe("a kept page whose render is partial", () => {
  for (const [name, path] of [
    ["a component inside <Suspense> throws on the server", "/test/widget-throws"],
    ["a component inside <Suspense> suspends past RENDER_TIMEOUT_MS", "/test/widget-never"],
  ]) {
    it(`is answered as usual, no-cache, never kept, counted as bypass, when ${name}`, async () => {
      results.length = 0;
      const answers = [];
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${app.url}${path}`);
        answers.push({ response, html: await response.text() });
      }
      for (const { response, html } of answers) {
        expect(response.status).toBe(200);
        expect(html).toContain('id="widget-fallback"');
        expect(response.headers.get("cache-control")).toBe("no-cache");
        expect(response.headers.get("cache-status")).toBe("outpost; fwd=bypass");
      }
      expect(renderId(answers[1]?.html ?? "")).not.toBe(renderId(answers[0]?.html ?? ""));
      expect(results).toEqual(["bypass", "bypass"]);
    });
  }
});
