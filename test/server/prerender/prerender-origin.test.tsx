import type { Context } from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp, type TestApp } from "../../support/test-app";

// At build the request's origin is the build machine's private address (http://127.0.0.1:<port>):
// a prerendered page that read it would bake it into every visitor's page (a canonical link).

const errors: unknown[] = [];
let app: TestApp;

const routes = await loadAppRoutes({
  routes: [route("test/canonical", "test/canonical.tsx"), route("test/path-only", "test/path-only.tsx")],
  files: {
    "test/canonical.tsx": {
      module: { default: ({ data }: { data: { href: string } }) => <link rel="canonical" href={data.href} /> },
      server: { prerender: true, load: ({ url }) => ({ href: url.href }) },
    },
    "test/path-only.tsx": {
      module: { default: ({ data }: { data: { path: string } }) => <p id="path">{data.path}</p> },
      server: { prerender: true, load: ({ url }) => ({ path: url.pathname }) },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({}, { routes, prerendering: { onAnswer: () => {}, onRenderError: (error: unknown, _ctx: Context) => errors.push(error) } });
});
afterAll(() => app.close());

describe("a prerendered page's URL", () => {
  it("refuses the origin (href, origin, host…), naming the route, as it refuses headers", async () => {
    await (await fetch(`${app.url}/test/canonical`)).text();
    expect(errors.map(String)).toEqual([expect.stringContaining("route /test/canonical is prerendered but its code read the origin (url.href) at build")]);
  });

  it("gives its path", async () => {
    errors.length = 0;
    const html = await (await fetch(`${app.url}/test/path-only`)).text();
    expect(html).toContain('<p id="path">/test/path-only</p>');
    expect(errors).toEqual([]);
  });
});
